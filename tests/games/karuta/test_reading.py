"""The reading schedule: time base, rhythm, kimariji timing, pace."""

from __future__ import annotations

import pytest

from games.karuta import engine, reading
from poems import catalogue
from poems.kimariji import dynamic_kimariji, static_kimariji


def test_first_upper_verse_kana_is_shown_at_zero_one_kana_every_200_ms():
    sched = reading.schedule("competitive", 1, 2, "standard", static_kimariji(1))
    times = sched["kami"]["t"]
    assert times[0] == 0 and times[1] == 200
    assert sched["kami"]["kana"] == list(catalogue.poem(1).kami_kana_flat)
    assert len(times) == len(sched["kami"]["said"]) == len(sched["kami"]["kana"])
    assert times == sorted(times)


@pytest.mark.parametrize("poem", [p.number for p in catalogue.poems()])
def test_standard_rhythm_is_about_5_3_1_6_seconds(poem):
    sched = reading.schedule("competitive", poem, 100 if poem != 100 else 1, "standard", 1)
    lower, pause, breath = sched["preamble"]
    assert (lower["part"], pause["part"], breath["part"]) == ("shimo", "pause", "breath")
    assert 4000 <= lower["end"] - lower["start"] <= 6000
    assert pause["end"] - pause["start"] == 3000 and breath["end"] - breath["start"] == 1000
    assert breath["end"] == 0 and lower["end"] == pause["start"]
    assert 5000 <= sched["kami"]["end"] <= 7000


def test_the_deciding_kana_time_follows_the_kimariji_length():
    # あさぼらけう (64) needs 6 kana at first, 3 (あさぼ) once あさぼらけあ (31) is read.
    length = static_kimariji(64)
    assert length == 6
    times = reading.kami_times(64, "standard")
    assert reading.decided_ms(64, length, "standard") == times[5]
    shorter = dynamic_kimariji(64, [31])
    assert reading.decided_ms(64, shorter, "standard") == times[shorter - 1] < times[5]


def test_a_faster_pace_shortens_everything():
    slow = reading.schedule("chirashi", 5, 4, "slow", 3)
    fast = reading.schedule("chirashi", 5, 4, "very_fast", 3)
    assert fast["kami"]["end"] < slow["kami"]["end"]
    assert fast["close"] < slow["close"]
    assert fast["preamble"][0]["start"] > slow["preamble"][0]["start"]
    assert reading.unit_ms(10) == 100


def test_chirashi_reads_the_lower_verse_after_the_upper_and_closes_after_it():
    sched = reading.schedule("chirashi", 7, None, "standard", 2)
    assert [p["part"] for p in sched["preamble"]] == ["breath"]
    assert sched["shimo"]["t"][0] > sched["kami"]["end"]
    assert sched["close"] > sched["shimo"]["end"]
    competitive = reading.schedule("competitive", 7, 6, "standard", 2)
    assert competitive["shimo"] is None and competitive["close"] > competitive["kami"]["end"]


def test_competitive_opens_with_the_joka_which_is_never_a_card():
    s = engine.new_state({"mode": "competitive", "memorise_seconds": 0}, [{}, {}], 9)
    view = engine.view(s, 0)
    parts = [p["part"] for p in view["reading"]["preamble"]]
    assert parts == ["joka", "joka_shimo", "pause", "breath"]
    assert view["reading"]["preamble"][0]["kana"] == catalogue.JOKA_KANA
    assert 0 not in s["pool"] and 0 not in s["queue"]
    assert view["reading"]["poem"] in range(1, 101)


@pytest.mark.parametrize("pace", ["light", 0.5, 100, True, None])
def test_bad_paces_are_refused(pace):
    with pytest.raises(ValueError):
        reading.kana_per_second(pace)
