"""Abandonment cooldowns and the karuta take-time check, alone (lobby/cooldown.py,
lobby/fairplay.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from games.karuta import simulate
from lobby import cooldown, fairplay

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def at(minutes):
    return T0 + timedelta(minutes=minutes)


def test_one_abandonment_earns_no_cooldown():
    assert cooldown.active([at(0)], at(1)) is None


def test_cooldowns_grow_and_stop_at_three_days():
    history = []
    lengths = []
    now = T0
    for _ in range(9):
        history.append(now)
        current = cooldown.active(history, now)
        lengths.append(current.end - current.start if current else None)
        now += timedelta(hours=1) if current is None else current.end - now + timedelta(minutes=1)
    minutes = [None if x is None else x / timedelta(minutes=1) for x in lengths]
    assert minutes == [None, 10, 30, 90, 270, 810, 2430, 4320, 4320]


def test_the_cooldown_runs_out_on_the_clock():
    history = [at(0), at(5)]
    current = cooldown.active(history, at(6))
    assert current.end == at(15) and current.left(at(6)) == timedelta(minutes=9)
    assert current.recent_abandonments == 2
    assert cooldown.active(history, at(15)) is None


def test_abandonments_far_apart_earn_nothing_and_old_cooldowns_are_forgotten():
    assert cooldown.active([at(0), T0 + timedelta(days=8)], T0 + timedelta(days=8)) is None
    history = [at(0), at(1), T0 + timedelta(days=40), T0 + timedelta(days=40, minutes=1)]
    latest = cooldown.active(history, T0 + timedelta(days=40, minutes=2))
    assert latest.end - latest.start == cooldown.FIRST


def test_a_repeated_record_changes_nothing():
    history = [at(0), at(5)]
    assert cooldown.cooldowns([*history, at(5)]) == cooldown.cooldowns(history)


def test_a_future_abandonment_does_not_count_yet():
    assert cooldown.active([at(0), at(30)], at(10)) is None


def test_take_time_is_measured_on_the_servers_clock():
    assert fairplay.take_ms(arrival_ms=5150, owd_ms=40, deciding_release_ms=5000) == 110
    assert fairplay.take_ms(arrival_ms=5150, owd_ms=None, deciding_release_ms=5000) is None


def test_a_client_taking_100_to_130_ms_after_every_deciding_kana_is_flagged_within_30():
    rng = random.Random(39)
    for _ in range(200):
        record = fairplay.TakeRecord()
        for _take in range(30):
            release = rng.uniform(1000, 4000)
            true_owd = rng.uniform(10, 120)
            arrival = release + rng.uniform(100, 130) + true_owd
            owd_estimate = true_owd + rng.uniform(-3, 3)  # the server's estimate
            record.add(fairplay.take_ms(arrival, owd_estimate, release))
        assert record.flagged  # by the 30th take


def test_the_meijin_cpus_takes_flag_nobody():
    """10,000 takes of the 名人 CPU's timing model, played through the real engine, as ten
    accounts that keep playing each other: not one is flagged."""
    accounts = [fairplay.TakeRecord() for _ in range(10)]
    counted = 0
    seed = 0
    while counted < 10_000:
        pair = (2 * (seed % 5), 2 * (seed % 5) + 1)

        def note(seat, after_decided, _after_verse, pair=pair):
            nonlocal counted
            if counted < 10_000:
                accounts[pair[seat]].add(after_decided)
                counted += 1

        simulate.play(["meijin", "meijin"], seed, on_touch=note)
        seed += 1
    assert sum(a.flagged for a in accounts) == 0
    assert all(len(a.takes) == fairplay.WINDOW for a in accounts)


def test_a_regular_but_slow_player_is_not_flagged():
    record = fairplay.TakeRecord()
    for i in range(100):
        record.add(400 + (i % 7) * 3)
    assert not record.flagged


def test_a_flag_stays():
    record = fairplay.TakeRecord([110.0] * 30, flagged=True)
    for i in range(60):
        record.add(200 + 50 * (i % 9))
    assert record.flagged
