"""The poem of the day: one poem per date for everyone, every poem once per 100 days."""

from __future__ import annotations

import datetime as dt

from poems import daily, kimariji


def test_every_run_of_100_days_shows_every_poem_once():
    start = dt.date(2026, 3, 1)
    first = daily.EPOCH + dt.timedelta(days=(daily.day_number(start) // 100) * 100)
    seen = [daily.poem_of_day(first + dt.timedelta(days=i)) for i in range(100)]
    assert sorted(seen) == list(range(1, 101))
    assert daily.order(0) != daily.order(1)


def test_the_date_is_japans():
    utc = dt.UTC
    before = dt.datetime(2026, 12, 1, 14, 59, tzinfo=utc)  # 23:59 in Tokyo
    after = dt.datetime(2026, 12, 1, 15, 0, tzinfo=utc)  # 00:00 on the 2nd in Tokyo
    assert daily.japan_date(before) == dt.date(2026, 12, 1)
    assert daily.japan_date(after) == dt.date(2026, 12, 2)
    la = dt.timezone(dt.timedelta(hours=-8))
    assert daily.japan_date(after.astimezone(la)) == dt.date(2026, 12, 2)


def test_nearest_look_alikes_share_the_longest_beginning():
    assert daily.nearest(31) == [64, 39]  # あさぼらけあ: あさぼらけう, then あさぢ
    for n in (1, 42, 77):
        own = kimariji.comparison_keys_of(n)
        near = daily.nearest(n, 5)
        shared = [kimariji.shared_prefix(own, kimariji.comparison_keys_of(m)) for m in near]
        assert shared == sorted(shared, reverse=True)
        assert shared[0] == kimariji.static_kimariji(n) - 1
