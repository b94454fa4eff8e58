"""Touches judged on the server's terms (games/karuta/judge.py): the platform's arrival
stamps, impossible touches refused, contested cards judged by corrected time, and the
judging window's deadlines."""

from __future__ import annotations

import pytest

import gamekit
from games.karuta import engine, judge, reading

A, B = 0, 1


@pytest.fixture
def game():
    return gamekit.registry.get("karuta")


def stamped(state, action, arrival, owd=10, decided=None, server=False, jitter=None):
    """`action` stamped as arriving at reading time `arrival` (and decided at `decided`)."""
    since = state["reading"]["since"]
    decided = arrival + 1 if decided is None else decided
    stamp = {"arrival": arrival - since, "decided": decided - since, "owd": owd,
             "jitter": jitter, "server": server}  # fmt: skip
    return {**action, gamekit.STAMP: stamp}


def touch(card, t, **extra):
    return {"type": "touch", "card": card, "t": t, **extra}


def one_kana():
    """む (87) is read; it lies on A's side, す (18) on B's."""
    return engine.situation([[[87, 1], [], []], [[18, 2], [], []]], queue=[87, 18, 1, 2, 3])


def result_of(events):
    return next(e for e in events if e["type"] == "result")


def test_a_contested_card_goes_to_the_earlier_corrected_time_not_the_earlier_arrival():
    s = one_kana()
    # A is near the server (10 ms), B far (150 ms): A's touch arrives first, B's is earlier.
    s, _ = engine.apply(s, A, stamped(s, touch(87, 1010), arrival=1020, owd=10))
    s, events = engine.apply(s, B, stamped(s, touch(87, 1000), arrival=1150, owd=150))
    r = result_of(events)
    assert r["taker"] == B and r["t"] == 1000
    assert r["reaches"] == [[B, 1000], [A, 1010]] and r["by"] == 10


def test_the_arrival_judge_gives_it_to_the_first_arrival():
    s = one_kana()
    s, _ = engine.apply(s, A, stamped(s, touch(87, 1010, judge="arrival"), arrival=1020))
    s, events = engine.apply(s, B, stamped(s, touch(87, 1000, judge="arrival"), arrival=1150))
    r = result_of(events)
    assert r["taker"] == A and r["reaches"] == [[A, 1020], [B, 1150]] and r["by"] == 130


def refused(state, seat, action):
    with pytest.raises(judge.ImpossibleTouchError) as caught:
        engine.apply(state, seat, action)
    assert caught.value.code == "impossible_touch" and caught.value.logged
    return caught.value.reason


def test_a_touch_from_the_future_is_refused_within_a_small_tolerance():
    s = one_kana()
    assert refused(s, A, stamped(s, touch(87, 1100), arrival=1000)) == "future"
    # Within the tolerance it counts, at the moment it was decided (never in the future).
    after, _ = engine.apply(s, A, stamped(s, touch(87, 1040), arrival=1000, decided=1003))
    assert after["reading"]["touches"][A] == [[87, 1003]]


def test_a_late_claim_of_an_early_time_is_refused():
    s = one_kana()
    # 10 ms away: it may arrive at most 10 + 100 ms (the margin, for jitter) after its time.
    margin = judge.LATE_MARGIN_MS
    late = 1000 + 10 + margin
    assert refused(s, A, stamped(s, touch(87, 1000), arrival=late + 1, owd=10)) == "late"
    engine.apply(s, A, stamped(s, touch(87, 1000), arrival=late, owd=10))
    # An unknown delay gets the cap (400 ms), and so does a long one.
    assert refused(s, A, stamped(s, touch(87, 1000), arrival=1401, owd=None)) == "late"
    assert refused(s, A, stamped(s, touch(87, 1000), arrival=1401, owd=900)) == "late"
    engine.apply(s, A, stamped(s, touch(87, 1000), arrival=1400, owd=None))


def test_a_jittery_link_is_allowed_its_jitter_up_to_the_cap():
    s = one_kana()

    def answer(arrival, **stamp):
        """What the judge says of a touch claiming 1000 that arrives at `arrival`."""
        try:
            engine.apply(s, A, stamped(s, touch(87, 1000), arrival=arrival, **stamp))
        except judge.ImpossibleTouchError as exc:
            return exc.reason
        return "ok"

    # 10 ms away with 60 ms of jitter: 10 + 60 + the margin.
    edge = 1000 + 10 + 60 + judge.LATE_MARGIN_MS
    assert answer(edge, owd=10, jitter=60) == "ok"
    assert answer(edge + 1, owd=10, jitter=60) == "late"
    # Inflated jitter (pongs held back) gains no more than the cap.
    assert answer(1000 + judge.LATE_CAP_MS, owd=10, jitter=5000) == "ok"
    assert answer(1000 + judge.LATE_CAP_MS + 1, owd=10, jitter=5000) == "late"
    # A jitter that is not a whole number of ms, or negative, or absent (an old log) is none.
    edge = 1000 + 10 + judge.LATE_MARGIN_MS
    for bad in (-50, 30.5, True, "60", None):
        assert answer(edge, owd=10, jitter=bad) == "ok"
        assert answer(edge + 1, owd=10, jitter=bad) == "late", bad
    assert judge.window(10, 60) == 10 + 60 + judge.LATE_MARGIN_MS
    assert judge.window(10) == 10 + judge.LATE_MARGIN_MS
    assert judge.window(None, 60) == judge.LATE_CAP_MS


def asaborake(read):
    """あさぼらけ あ… (31) and あさぼらけ う… (64) share five kana; `read` is read."""
    other = 64 if read == 31 else 31
    return engine.situation([[[31, 1], [], []], [[64, 5], [], []]], queue=[read, other, 1, 5, 9])


def test_a_guess_before_the_card_is_singled_out_is_refused_and_says_nothing():
    s = asaborake(31)
    times = reading.kami_times(31, s["settings"]["pace"])
    decided = s["reading"]["decided"]
    assert decided == times[5]
    early = decided + judge.MIN_REACTION_MS - 1
    assert refused(s, A, stamped(s, touch(31, early), arrival=early + 5)) == "guess"
    ok = decided + judge.MIN_REACTION_MS
    engine.apply(s, A, stamped(s, touch(31, ok), arrival=ok + 5))
    # A card the heard kana rule out is a plain mistake, not a guess: it counts.
    wrong = times[2] + judge.MIN_REACTION_MS  # あさぼ heard; 秋の田 (1) is not あさぼ…
    engine.apply(s, A, stamped(s, touch(1, wrong), arrival=wrong + 5))
    # Refusals depend on the kana heard alone: the same touches get the same answers
    # whichever of the two poems is being read.
    for t in (0, times[0] + 100, times[3] + 100, times[4] + 150):
        for card in (31, 64):
            answers = set()
            for read in (31, 64):
                state = asaborake(read)
                try:
                    engine.apply(state, A, stamped(state, touch(card, t), arrival=t + 5))
                    answers.add("ok")
                except judge.ImpossibleTouchError as exc:
                    answers.add(exc.reason)
            assert answers == {"guess"}


def test_server_moves_and_unstamped_actions_are_not_checked():
    s = one_kana()
    # The CPU's touch played late by a busy server still counts at its planned time.
    late = stamped(s, touch(87, 1000), arrival=3000, server=True)
    after, _ = engine.apply(s, B, late)
    assert after["reading"]["touches"][B] == [[87, 1000]]
    engine.apply(s, A, touch(87, 0))  # engine tests and old logs carry no stamp


def test_the_reading_clock_follows_the_stamps_and_the_seats_delays():
    s = one_kana()
    since = s["reading"]["since"]
    assert since == reading.preamble(reading.JOKA, s["settings"]["pace"])[0]["start"] < 0
    s, _ = engine.apply(
        s,
        A,
        stamped(
            s,
            {"type": "arrange", "rows": [[1, 87], [], []], "t": since + 500},
            arrival=since + 500,
            owd=33,
            jitter=12,
        ),
    )
    assert s["reading"]["since"] == since + 501
    assert s["owd"] == [33, None] and s["jitter"] == [12, None]
    assert engine.view(s, None)["reading"]["t0"] == -(since + 501)


def test_the_judging_window_passes_a_seat_after_the_take_plus_its_delay(game):
    s = one_kana()
    assert game.deadline(s, B) == (
        s["reading"]["close"] + judge.LATE_CAP_MS - s["reading"]["since"],
        {"type": "pass"},
    )
    s, _ = engine.apply(
        s,
        B,
        stamped(
            s,
            {"type": "arrange", "rows": [[18], [2], []], "t": -100},
            arrival=-100,
            owd=40,
            jitter=25,
        ),
    )
    s, _ = engine.apply(s, A, stamped(s, touch(87, 800), arrival=810, owd=10))
    since = s["reading"]["since"]
    # B's window is the one its touches are checked with: its delay plus its jitter.
    assert game.deadline(s, B) == (800 + 40 + 25 + judge.LATE_MARGIN_MS - since, {"type": "pass"})
    assert game.deadline(s, A) is None  # A has finished
    # A state saved before the jitter was stamped waits for the delay alone.
    old = {key: value for key, value in s.items() if key != "jitter"}
    assert game.deadline(old, B) == (800 + 40 + judge.LATE_MARGIN_MS - since, {"type": "pass"})
    # A CPU seat claims nothing: it is passed after the margin alone.
    s["seats"][B]["is_cpu"] = True
    assert game.deadline(s, B) == (800 + judge.LATE_MARGIN_MS - since, {"type": "pass"})


def test_a_cpus_touch_is_played_at_its_time_and_its_plan_kept(game):
    s = one_kana()
    since = s["reading"]["since"]
    assert game.play_at(s, B, touch(87, 700)) == 700 - since
    assert game.play_at(s, B, {"type": "pass"}) == s["reading"]["close"] - since
    key = game.cpu_key(s, B)
    s2, _ = engine.apply(s, A, stamped(s, touch(2, 300), arrival=310))  # another seat moved
    assert game.cpu_key(s2, B) == key
