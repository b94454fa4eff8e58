"""Invariants over many games: conservation, determinism, JSON round trip, game end."""

from __future__ import annotations

import json
import random

import pytest

from gamekit import GameError
from games.karuta import cpu, engine, simulate


def random_action(state, seat, rng):
    """A random but well-formed action: what a careless or hostile client might send."""
    phase = state["phase"]
    if phase == "memorise":
        return {"type": "ready"}
    if phase == "send":
        return {"type": "send", "card": rng.choice(engine.side_cards(state, seat))}
    r = state["reading"]
    mine = r["touches"][seat]
    if rng.random() < 0.25:
        return {"type": "pass"}
    low = mine[-1][1] if mine else 0
    card = rng.choice([*engine.field_cards(state), r["poem"]])
    return {"type": "touch", "card": card, "t": rng.randint(low, min(low + 3000, r["close"]))}


def check_invariants(state, initial_field):
    field = engine.field_cards(state)
    assert len(field) == len(set(field))
    assert set(field) <= set(state["queue"])  # every card on the field is still to be read
    assert not set(state["queue"]) & set(state["read"]) or state["mode"] == "chirashi"
    assert 0 not in state["queue"] and 0 not in field  # the 序歌 is never a card
    if state["mode"] == "competitive":
        removed = [p for p in state["read"] if p in initial_field]
        assert sorted(field + removed) == sorted(initial_field)  # card conservation
        dead = set(state["pool"]) - set(initial_field)
        assert not dead & set(field)  # dead cards never reach the field
    else:
        taken = [c for cards in state["taken"] for c in cards]
        gone = [p for p in state["read"] if p not in taken and p not in state["queue"]]
        assert sorted(field + taken + list(set(gone))) == sorted(state["pool"])


def play_randomly(mode, seed, **settings):
    players = {"competitive": 2, "chirashi": 3, "solo": 1}[mode]
    chosen = {"mode": mode, "players": players, "memorise_seconds": 30, **settings}
    state = engine.new_state(chosen, [{"is_cpu": False}] * players, seed)
    initial_field = engine.field_cards(state)
    rng = random.Random(seed)
    actions = []
    for _ in range(20_000):
        waiting = engine.to_act(state)
        if not waiting:
            break
        seat = rng.choice(waiting)
        action = random_action(state, seat, rng)
        try:
            state, _ = engine.apply(state, seat, action)
        except GameError:
            continue
        actions.append((seat, action))
        check_invariants(state, initial_field)
    assert state["phase"] == "over"
    return state, actions, initial_field


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("mode", "settings"),
    [
        ("competitive", {}),
        ("competitive", {"poem_set": 2}),
        ("chirashi", {"poem_set": 4}),
        ("chirashi", {"poem_set": 1, "otetsuki_penalty": "return_card"}),
        ("solo", {"poem_set": 5}),
    ],
)
def test_random_play_conserves_cards_and_ends(mode, settings, seed):
    state, _, initial_field = play_randomly(mode, seed, **settings)
    res = engine.result(state)
    assert res is not None and len(res["places"]) == len(state["seats"])
    if mode == "competitive":
        winner = res["winner"]
        assert engine.side_cards(state, winner) == []
        assert engine.side_cards(state, 1 - winner) != []
        assert set(state["read"]) - set(initial_field)  # dead cards were read as well


def replay(mode, settings, seed, actions):
    players = {"competitive": 2, "chirashi": 3, "solo": 1}[mode]
    chosen = {"mode": mode, "players": players, "memorise_seconds": 30, **settings}
    state = engine.new_state(chosen, [{"is_cpu": False}] * players, seed)
    for seat, action in actions:
        state, _ = engine.apply(state, seat, action)
    return state


@pytest.mark.parametrize("mode", ["competitive", "chirashi", "solo"])
def test_same_seed_and_actions_reach_the_same_state_through_json(mode):
    settings = {} if mode == "competitive" else {"poem_set": 3}
    final, actions, _ = play_randomly(mode, 11, **settings)
    assert replay(mode, settings, 11, actions) == final
    # Stop half way, store as JSON, load, and go on: the same end.
    half = len(actions) // 2
    state = replay(mode, settings, 11, actions[:half])
    stored = json.loads(json.dumps(engine.clone(state)))
    state = engine.load(stored)
    for seat, action in actions[half:]:
        state, _ = engine.apply(state, seat, action)
    assert state == final


def test_self_play_is_deterministic_and_seeds_differ():
    a = simulate.play(("futsu", "tsuyoi"), seed=5)
    b = simulate.play(("futsu", "tsuyoi"), seed=5)
    c = simulate.play(("futsu", "tsuyoi"), seed=6)
    assert a == b
    assert a["read"] != c["read"]


def test_dead_cards_are_read_but_never_on_the_field():
    final = simulate.play(("meijin", "meijin"), seed=2)
    initial_dead = set(range(1, 101)) - set(
        engine.field_cards(engine.new_state(simulate.LADDER_SETTINGS, [{}, {}], 2))
    )
    assert len(initial_dead) == 50
    assert initial_dead & set(final["read"])  # dead cards were read
    assert not initial_dead & set(engine.field_cards(final))


def test_the_view_never_shows_the_reading_order_or_the_seed():
    state = engine.new_state({"mode": "competitive", "memorise_seconds": 0}, [{}, {}], 424242)
    upcoming = state["queue"][1:]
    for seat in (0, 1, None):
        text = json.dumps(engine.view(state, seat))
        assert "424242" not in text and "queue" not in text and "rng" not in text
        assert str(upcoming[:5])[1:-1] not in text


def _with_hidden_changes(state, seed):
    """The same game as seen by any player, with every hidden thing changed: the order of
    the poems after the one being read, the seed and the RNG counter."""
    other = engine.clone(state)
    rest = other["queue"][1:]
    random.Random(seed).shuffle(rest)
    other["queue"][1:] = rest
    other["seed"], other["rng_n"] = state["seed"] + 1, state["rng_n"] + 7
    assert other["queue"] != state["queue"]
    return other


# Everything a karuta CPU may read from its view (issue 18 will take "poem" away); "form"
# is a CPU seat's own form in this game (engine.cpu_form), "end" when the upper verse ends.
CPU_VIEW = {
    "mode": None, "phase": None, "to_act": None, "seats": None, "sides": None, "field": None,
    "form": None,
    "reading": {"poem": None, "kami": {"t": None, "end": None}, "kimariji": None,
                "static_kimariji": None, "close": None, "touches": None},
}  # fmt: skip


def _only(view, allowed):
    out = {}
    for key, sub in allowed.items():
        if key in view:
            value = view[key]
            out[key] = _only(value, sub) if sub is not None and value is not None else value
    return out


@pytest.mark.parametrize("level", cpu.LEVEL_ORDER)
def test_the_cpu_plays_from_those_view_fields_alone(level):
    # A CPU that read anything else (the tally, the kimariji map, a future key…) would
    # raise KeyError here or act differently on the trimmed view.
    for seed in range(12):
        cpus = [{"is_cpu": True, "level": level}] * 2  # so each view has the seat's form
        state = engine.new_state(simulate.LADDER_SETTINGS, cpus, seed)
        for _ in range(6):  # a few readings in, with sends along the way
            seat = engine.to_act(state)[0]
            view = engine.view(state, seat)
            full = cpu.cpu_policy(view, seat, level, random.Random(seed))
            trimmed = cpu.cpu_policy(_only(view, CPU_VIEW), seat, level, random.Random(seed))
            assert full == trimmed
            state, _ = engine.apply(state, seat, full)


def test_hidden_information_does_not_change_what_the_cpu_does():
    for seed in range(20):
        state = engine.new_state(simulate.LADDER_SETTINGS, [{}, {}], seed)
        other = _with_hidden_changes(state, seed)
        for level in ("nyumon", "meijin"):
            a = cpu.cpu_policy(engine.view(state, 1), 1, level, random.Random(seed))
            b = cpu.cpu_policy(engine.view(other, 1), 1, level, random.Random(seed))
            assert a == b
