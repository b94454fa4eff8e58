"""Chirashi (2–4 players, otetsuki penalties, most cards wins) and solo practice."""

from __future__ import annotations

import pytest
from django.utils import translation

from gamekit import NotYourTurnError
from games.karuta import engine, stats, text


def chirashi(players=2, seed=1, **settings):
    chosen = {"mode": "chirashi", "players": players, "memorise_seconds": 0, **settings}
    seats = [{"is_cpu": False}] * players
    return engine.new_state(chosen, seats, seed)


def solo(seed=1, **settings):
    chosen = {"mode": "solo", "memorise_seconds": 0, **settings}
    return engine.new_state(chosen, [{"is_cpu": False}], seed)


def current(state):
    return state["reading"]["poem"]


def wrong_card(state):
    return next(c for c in engine.field_cards(state) if c != current(state))


def everyone_passes(state):
    for seat in engine.to_act(state):
        state, _ = engine.apply(state, seat, {"type": "pass"})
    return state


def test_a_poem_set_lays_out_those_twenty_cards_face_up():
    s = chirashi(poem_set=3)
    assert sorted(engine.field_cards(s)) == list(range(41, 61))
    assert all(0 <= x <= 1 and 0 <= y <= 1 and 0 <= rot < 360 for _, x, y, rot in s["field"])
    assert sorted(s["queue"]) == list(range(41, 61))


def test_the_first_touch_on_the_read_card_takes_it():
    s = chirashi(players=3)
    poem = current(s)
    s, _ = engine.apply(s, 1, {"type": "touch", "card": poem, "t": 900})
    s, _ = engine.apply(s, 2, {"type": "touch", "card": poem, "t": 700})
    s, events = engine.apply(s, 0, {"type": "pass"})
    result = next(e for e in events if e["type"] == "result")
    assert result["taker"] == 2 and s["taken"][2] == [poem]
    assert poem not in engine.field_cards(s)


def test_a_wrong_touch_is_otetsuki_ends_your_reading_and_sits_you_out_next():
    s = chirashi()
    s, _ = engine.apply(s, 0, {"type": "touch", "card": wrong_card(s), "t": 300})
    assert engine.to_act(s) == (1,)  # seat 0 is done for this poem
    s, events = engine.apply(s, 1, {"type": "touch", "card": current(s), "t": 800})
    result = next(e for e in events if e["type"] == "result")
    assert result["otetsuki"] == [1, 0] and result["sit_out"] == [0]
    assert s["reading"]["active"] == [1] and engine.to_act(s) == (1,)
    with pytest.raises(NotYourTurnError):
        engine.apply(s, 0, {"type": "touch", "card": current(s), "t": 100})
    s, _ = engine.apply(s, 1, {"type": "pass"})
    assert s["reading"]["active"] == [0, 1]  # back in after one poem


def test_return_card_penalty_puts_a_taken_card_back_to_be_read_again():
    s = chirashi(otetsuki_penalty="return_card", poem_set=1)
    first = current(s)
    s, _ = engine.apply(s, 0, {"type": "touch", "card": first, "t": 500})
    s, _ = engine.apply(s, 1, {"type": "pass"})
    assert s["taken"][0] == [first]
    s, _ = engine.apply(s, 0, {"type": "touch", "card": wrong_card(s), "t": 300})
    s, events = engine.apply(s, 1, {"type": "pass"})
    result = next(e for e in events if e["type"] == "result")
    assert result["returned"] == [[0, first]]
    assert s["taken"][0] == [] and first in engine.field_cards(s) and first in s["queue"]
    assert s["reading"]["active"] == [0, 1]  # no sitting out with this penalty
    # Shown plainly: the poem goes back into the reading order, so it will be read again.
    with translation.override("en"):
        lines = text.describe_events(events)
    assert any("will be read again" in line for line in lines)


def test_chirashi_reads_the_lower_verse_twice_by_default_and_once_on_request():
    twice = engine.view(chirashi(), 0)["reading"]
    once = engine.view(chirashi(lower_verse_twice=False), 0)["reading"]
    assert twice["poem"] == once["poem"]
    assert once["shimo"]["again"] is None
    again = twice["shimo"]["again"]
    lower = twice["shimo"]["end"] - twice["shimo"]["t"][0]
    assert again["start"] > twice["shimo"]["end"] and again["end"] - again["start"] == lower
    assert twice["close"] > again["end"] and twice["close"] - once["close"] == (
        again["end"] - once["shimo"]["end"]
    )
    assert engine.view(chirashi(), 0)["settings"]["lower_verse_twice"] is True


def test_an_untaken_card_leaves_the_field_and_most_cards_wins():
    s = chirashi(players=3, poem_set=2)
    taker_for = [0, 0, 1, 2]
    reading = 0
    while s["phase"] != "over":
        poem = current(s)
        winner = taker_for[reading % 4]
        if reading < 19:
            s, _ = engine.apply(s, winner, {"type": "touch", "card": poem, "t": 500})
        s = everyone_passes(s)
        reading += 1
    assert reading == 20 and not engine.field_cards(s)
    res = engine.result(s)
    assert res["scores"] == [10, 5, 4] and res["places"] == [1, 2, 3] and res["winner"] == 0
    assert sum(len(t) for t in s["taken"]) == 19  # the last poem nobody touched


def test_tied_scores_share_a_place():
    assert engine._places([3, 5, 5, 1], higher_is_better=True) == [3, 1, 1, 4]


def test_exact_ties_are_drawn_by_the_seeded_rng():
    takers = set()
    for seed in range(12):
        s = chirashi(seed=seed)
        poem = current(s)
        s, _ = engine.apply(s, 0, {"type": "touch", "card": poem, "t": 600})
        s, events = engine.apply(s, 1, {"type": "touch", "card": poem, "t": 600})
        result = next(e for e in events if e["type"] == "result")
        assert result["simultaneous"]
        takers.add(result["taker"])
        again = chirashi(seed=seed)
        again, _ = engine.apply(again, 0, {"type": "touch", "card": poem, "t": 600})
        again, _ = engine.apply(again, 1, {"type": "touch", "card": poem, "t": 600})
        assert again == s
    assert takers == {0, 1}


# --- solo ----------------------------------------------------------------------------------------


def test_solo_records_take_times_wrong_touches_and_misses():
    s = solo(poem_set=1)
    first = current(s)
    decided = s["reading"]["decided"]
    wrong = wrong_card(s)
    s, _ = engine.apply(s, 0, {"type": "touch", "card": wrong, "t": 200})
    assert engine.to_act(s) == (0,)  # solo players go on after a wrong touch
    s, _ = engine.apply(s, 0, {"type": "touch", "card": first, "t": decided + 350})
    s, _ = engine.apply(s, 0, {"type": "pass"})  # the second poem is missed
    first_rec, second_rec = s["records"]
    assert first_rec["poem"] == first and first_rec["t"] == decided + 350
    assert first_rec["after_kimariji"] == 350 and first_rec["wrong"] == [[wrong, 200]]
    assert second_rec["t"] is None and second_rec["after_kimariji"] is None
    assert len(engine.field_cards(s)) == 18


def test_solo_summary_mean_median_slowest_and_mistakes():
    records = [
        {"poem": 1, "kimariji": 3, "decided": 400, "t": 900, "after_kimariji": 500, "wrong": []},
        {"poem": 2, "kimariji": 2, "decided": 200, "t": 1400, "after_kimariji": 1200,
         "wrong": [[5, 100]]},
        {"poem": 3, "kimariji": 2, "decided": 200, "t": 500, "after_kimariji": 300, "wrong": []},
        {"poem": 4, "kimariji": 1, "decided": 0, "t": None, "after_kimariji": None,
         "wrong": [[7, 50], [8, 90]]},
    ]  # fmt: skip
    summary = stats.solo_summary(records, slowest=2)
    assert summary["poems"] == 4 and summary["taken"] == 3 and summary["missed"] == [4]
    assert summary["mean_ms"] == pytest.approx(933.3, abs=0.1)
    assert summary["median_ms"] == 900
    assert summary["mean_after_kimariji_ms"] == pytest.approx(666.7, abs=0.1)
    assert summary["median_after_kimariji_ms"] == 500
    assert [x["poem"] for x in summary["slowest"]] == [2, 1]
    assert summary["mistake_count"] == 3 and summary["poems_with_mistakes"] == [2, 4]
    assert stats.slowest_poems(records, count=3) == [4, 2, 1]
    assert stats.solo_summary([])["mean_ms"] is None


def test_practising_an_explicit_list_of_poems():
    s = solo(poems=[99, 7, 42])
    assert sorted(engine.field_cards(s)) == [7, 42, 99]
    while s["phase"] != "over":
        s, _ = engine.apply(s, 0, {"type": "touch", "card": current(s), "t": 2000})
    assert sorted(r["poem"] for r in s["records"]) == [7, 42, 99]
    assert engine.result(s)["scores"] == [3]


@pytest.mark.parametrize(
    "settings",
    [
        {"mode": "chirashi", "players": 5},
        {"mode": "competitive", "players": 3},
        {"mode": "solo", "players": 2},
        {"mode": "chirashi", "poems": [1, 2]},
        {"mode": "solo", "poems": [1, 1]},
        {"mode": "solo", "poems": [0]},
        {"mode": "solo", "poem_set": 6},
        {"mode": "competitive", "pace": "warp"},
        {"mode": "competitive", "pace": 50},
        {"mode": "competitive", "cpu_level": "god"},
        {"mode": "chirashi", "otetsuki_penalty": "pushups"},
        {"mode": "competitive", "memorise_seconds": 901},
        {"mode": "competitive", "colour": "red"},
    ],
)
def test_bad_settings_are_refused(settings):
    with pytest.raises(engine.InvalidSettingsError):
        engine.normalize_settings(settings)
