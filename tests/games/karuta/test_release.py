"""The reading released just in time (games/karuta/release.py), over many seeded readings:
nothing is in a released view before its time minus the lead, everything is once due, the
release moments are exactly where it changes, and what is released never depends on the
poem being read before its deciding kana."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from games.karuta import engine, release

LEAD = 150


def readings(mode: str, seed: int, count: int = 6):
    """States at the start of `count` readings of a seeded game (the seats take or pass)."""
    players = {"competitive": 2, "chirashi": 3, "solo": 1}[mode]
    settings = {
        "mode": mode,
        "players": players,
        "memorise_seconds": 0,
        "pace": random.Random(seed).choice(["slow", "standard", "fast", "very_fast", 9.5]),
    }
    state = engine.new_state(settings, [{"is_cpu": False}] * players, seed)
    rng = random.Random(seed)
    found = []
    while state["phase"] != "over" and len(found) < count:
        if state["phase"] == "reading":
            r = state["reading"]
            found.append(engine.clone(state))
            # A touch by someone (a take, a wrong card, or nothing), then everyone passes.
            seat = rng.choice(r["active"])
            cards = engine.field_cards(state)
            card = rng.choice([r["poem"]] if r["poem"] in cards and rng.random() < 0.7 else cards)
            t = rng.randint(r["decided"], r["close"])
            state, _ = engine.apply(state, seat, {"type": "touch", "card": card, "t": t})
        while state["phase"] == "reading" and engine.to_act(state):
            state, _ = engine.apply(state, engine.to_act(state)[0], {"type": "pass"})
        while state["phase"] == "send":
            sender = state["send"]["from"]
            card = engine.side_cards(state, sender)[0]
            state, _ = engine.apply(state, sender, {"type": "send", "card": card})
    return found


def with_touches(state, rng):
    """The same reading with a few touches recorded (their times anywhere in it)."""
    state = engine.clone(state)
    r = state["reading"]
    for seat in r["active"][:2]:
        r["touches"][seat].append([engine.field_cards(state)[0], rng.randint(0, r["close"])])
    return state


def probes(times):
    return sorted({-5000, 0, *times, *(t - 1 for t in times), *(t + 1 for t in times), 10**6})


@pytest.mark.parametrize("mode", ["competitive", "chirashi", "solo"])
def test_nothing_before_its_time_and_everything_once_due(mode):
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        for state in readings(mode, seed):
            state = with_touches(state, rng)
            full = engine.view(state, None)
            r = full["reading"]
            times = release.release_times(full, LEAD)
            for elapsed in probes(times):
                shown = release.released(full, elapsed, LEAD)
                s = shown["reading"]
                now = elapsed - r["t0"]
                upper = [
                    [k, t, said]
                    for k, t, said in zip(
                        r["kami"]["kana"], r["kami"]["t"], r["kami"]["said"], strict=True
                    )
                ]
                assert s["kana"] == [k for k in upper if k[1] - LEAD <= now]
                if r["shimo"]:
                    assert [k[:2] for k in s["shimo"]["kana"]] == [
                        [k, t]
                        for k, t in zip(r["shimo"]["kana"], r["shimo"]["t"], strict=True)
                        if t - LEAD <= now
                    ]
                named = r["decided"] - LEAD <= now
                assert (s["poem"] is not None) == named
                for key in ("kimariji", "static_kimariji", "decided", "close", "end"):
                    assert (s[key] is not None) == named
                if not named:
                    # Nothing in the whole frame names it: not the verse, not the lower verse.
                    text = json.dumps(shown["reading"], ensure_ascii=False)
                    poem = engine.catalogue.poem(r["poem"])
                    assert poem.shimo_kana.split()[0] not in text
                assert s["touches"] == [x for x in r["touches"] if x[2] <= now]
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("mode", ["competitive", "chirashi"])
def test_the_release_moments_are_exactly_where_the_view_changes(mode):
    for seed in range(4):
        rng = random.Random(seed)
        for state in readings(mode, seed, count=3):
            full = engine.view(with_touches(state, rng), 0)
            times = release.release_times(full, LEAD)
            assert times == sorted(set(times))
            for before, after in itertools.pairwise(times):
                at_start = release.released(full, before, LEAD)
                assert release.released(full, after - 1, LEAD) == at_start
                assert release.released(full, after, LEAD) != at_start


def test_a_released_view_does_not_depend_on_the_poem_before_its_deciding_kana():
    """あさぼらけ あ… (31) and あさぼらけ う… (64) share five kana: until the sixth is due, the
    two readings are sent alike, to the byte."""
    sides = [[[31, 1], [], []], [[64, 2], [], []]]
    a = engine.situation(sides, queue=[31, 64, 1, 2, 3])
    b = engine.situation(sides, queue=[64, 31, 1, 2, 3])
    va, vb = engine.view(a, 0), engine.view(b, 0)
    sixth = va["reading"]["kami"]["t"][5]
    assert sixth == vb["reading"]["kami"]["t"][5]
    t0 = va["reading"]["t0"]
    for elapsed in range(0, t0 + sixth - LEAD, 37):
        assert release.released(va, elapsed, LEAD) == release.released(vb, elapsed, LEAD)
    after = t0 + sixth - LEAD
    assert release.released(va, after, LEAD) != release.released(vb, after, LEAD)


def test_the_full_view_is_not_changed_by_releasing_it():
    state = readings("chirashi", 3, count=1)[0]
    full = engine.view(state, 1)
    copy = json.loads(json.dumps(full))
    release.released(full, 100, LEAD)
    assert full == copy
