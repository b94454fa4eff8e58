"""The three CPU personalities: legal moves from views only, and each one's character."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from gamekit import IllegalActionError, InvalidActionError
from games.bakudan import cpu, engine, sim
from tests.games.bakudan.tables import build, draw, find


def choose(state, level, seed=0):
    seat = state.to_act
    return cpu.choose(engine.view(state, seat), seat, level, random.Random(seed))


@pytest.mark.parametrize("level", cpu.PERSONALITIES)
def test_a_cpu_plays_only_legal_moves_and_reads_nothing_but_its_view(level):
    for seed in range(40):
        state = engine.deal(2 + seed % 4, seed)
        while not state.over:
            seat = state.to_act
            view = engine.view(state, seat)
            frozen = copy.deepcopy(view)
            action = cpu.choose(view, seat, level, random.Random(seed))
            assert view == frozen  # it does not scribble on the view either
            assert action in view["legal"]
            state, _ = engine.apply(state, seat, action)


def test_a_cpu_refuses_a_view_that_is_not_its_turn():
    state = engine.deal(3, 1)
    with pytest.raises(IllegalActionError):
        cpu.choose(engine.view(state, 1), 1, "calm", random.Random(0))
    with pytest.raises(IllegalActionError):
        cpu.choose(engine.view(state, None), 0, "calm", random.Random(0))
    with pytest.raises(InvalidActionError):
        cpu.choose(engine.view(state, 0), 0, "sleepy", random.Random(0))


@pytest.mark.parametrize("escape", ["dodge", "push", "bottom"])
def test_calm_escapes_a_bomb_it_knows_is_on_top(escape):
    state = build([[escape, "nipper"], ["peek"]], ["bomb", "blank", "blank"])
    state.notes[0] = {0: state.deck[0]}
    assert choose(state, "calm") == {"type": "play", "card": find(state, 0, escape)}


def test_calm_draws_a_card_it_knows_is_safe_and_peeks_when_danger_is_high():
    state = build([["peek", "nipper"], ["peek"]], ["blank", "bomb", "blank"])
    assert engine.danger(state) >= cpu.PEEK_DANGER
    assert choose(state, "calm") == {"type": "play", "card": find(state, 0, "peek")}
    state.notes[0] = {0: state.deck[0]}
    assert choose(state, "calm") == {"type": "draw"}


def test_calm_does_not_peek_when_danger_is_low():
    state = build([["peek", "nipper"], ["peek"]], ["blank"] * 9 + ["bomb"])
    assert choose(state, "calm") == {"type": "draw"}


def test_calm_snatches_when_it_has_no_nipper():
    state = build([["snatch"], ["nipper", "blank"], ["blank"]], ["blank"] * 8 + ["bomb"] * 2)
    assert choose(state, "calm") == {
        "type": "play",
        "card": find(state, 0, "snatch"),
        "target": 1,  # the one with the most cards
    }
    state.hands[0].append("nipper-x")
    state.kinds = {**state.kinds, "nipper-x": "nipper"}
    assert choose(state, "calm") == {"type": "draw"}


def test_calm_keeps_its_shield_for_when_pushes_come_and_passes_a_push_on():
    state = build([["shield", "nipper"], ["peek"]], ["blank"] * 8 + ["bomb"])
    assert engine.danger(state) < cpu.SHIELD_DANGER
    assert choose(state, "calm") == {"type": "draw"}  # too early: kept in hand
    state = build([["shield", "nipper"], ["peek"]], ["blank"] * 3 + ["bomb"])
    assert choose(state, "calm") == {"type": "play", "card": find(state, 0, "shield")}
    state = build([["shield", "nipper"], ["peek"]], ["blank"] * 8 + ["bomb"], owed=2)
    assert choose(state, "calm") == {"type": "play", "card": find(state, 0, "shield")}
    state = build([["push", "nipper"], ["peek"]], ["blank"] * 8 + ["bomb"], owed=2)
    assert choose(state, "calm") == {"type": "play", "card": find(state, 0, "push")}


@pytest.mark.parametrize(("level", "where"), [("calm", "bottom"), ("ruthless", "top")])
def test_ruthless_attacks_with_the_top_calm_keeps_the_bomb_far_from_itself(level, where):
    state = build([["nipper"], ["peek"]], ["bomb", "blank", "blank"])
    state, _ = draw(state, 0)
    assert choose(state, level) == {"type": "place_bomb", "where": where}


def test_calm_keeps_a_bomb_away_from_itself_when_it_must_draw_again():
    state = build([["nipper"], ["peek"]], ["bomb", "blank", "blank"], owed=2)
    state, _ = draw(state, 0)
    assert choose(state, "calm") == {"type": "place_bomb", "where": "bottom"}


def test_reckless_puts_bombs_back_anywhere():
    choices = Counter()
    for seed in range(60):
        state = build([["nipper"], ["peek"]], ["bomb"] + ["blank"] * 6)
        state, _ = draw(state, 0)
        action = choose(state, "reckless", seed)
        choices[action["where"]] += 1
        if action["where"] == "position":
            choices[f"at {action['position']}"] += 1
    assert {"top", "bottom", "random", "position"} <= set(choices)
    assert len([key for key in choices if key.startswith("at ")]) >= 3


def test_ruthless_pushes_onto_a_human_even_when_danger_is_low():
    state = build(
        [["push", "nipper"], ["peek"], ["peek"]],
        ["blank"] * 12 + ["bomb"] * 2,
        cpu=["ruthless", None, "calm"],
    )
    assert engine.danger(state) < cpu.RUTHLESS_PUSH_DANGER
    assert choose(state, "ruthless") == {"type": "play", "card": find(state, 0, "push")}
    state.cpu = ["ruthless", "calm", None]  # the next player is a CPU: no push yet
    assert choose(state, "ruthless") == {"type": "draw"}


def test_ruthless_snatches_from_the_human_first():
    state = build(
        [["snatch", "nipper"], ["blank", "blank", "blank"], ["blank"]],
        ["blank"] * 12 + ["bomb"] * 2,
        cpu=["ruthless", "calm", None],
    )
    action = choose(state, "ruthless")
    assert action["target"] == 2


def test_calm_beats_reckless_clearly():
    figures = sim.simulate(3, 600, seed=11, levels=(cpu.RECKLESS, cpu.CALM))
    calm, reckless = figures.rate(cpu.CALM), figures.rate(cpu.RECKLESS)
    assert calm > 1.5 * reckless, (calm, reckless)
    assert calm > 1 / 3 > reckless


def test_the_fast_forward_hands_each_cpu_its_own_view_and_nothing_else(monkeypatch):
    state = engine.deal(4, 31, cpu=[None, "calm", "ruthless", "reckless"])
    state.alive[0] = False  # the person is out (as if by a bomb)
    state.places[0] = 4
    state.to_act = 1
    received = []
    policy = cpu.seat_policy(state.cpu)

    def spy(view, seat, rng):
        received.append((seat, copy.deepcopy(view)))
        return policy(view, seat, rng)

    seen_states = []
    original_view = engine.view

    def recording_view(st, seat):
        seen_states.append(engine.dump(st))
        return original_view(st, seat)

    monkeypatch.setattr(engine, "view", recording_view)
    end, events = engine.fast_forward(state, spy)
    monkeypatch.undo()
    assert end.over and end.fast_forward and end.winner != 0
    assert received and all(seat != 0 for seat, _ in received)
    for (seat, view), dumped in zip(received, seen_states, strict=True):
        assert view == original_view(engine.load(dumped), seat)
        assert view["seat"] == seat and "deck" not in view and "hands" not in view
    assert events[0]["type"] == "fast_forward"
    assert events[-1]["type"] == "won"


def test_a_cpus_whims_do_not_follow_from_the_match_seed_alone():
    """Reckless play-or-draw choices from a seed-only rng would give the (short) match seed
    away; they are mixed with the CPU's own hand, so the same rng seed with another hand
    makes other choices — and the same hand the same ones (replays hold)."""
    states = [engine.deal(3, seed) for seed in (1, 2)]
    for state in states:
        state.to_act = 1

    def whims(state, rng_seed):
        view = engine.view(state, 1)
        return [
            cpu.choose(view, 1, "reckless", random.Random(f"{rng_seed}:{n}"))["type"]
            for n in range(40)
        ]

    assert whims(states[0], 9) == whims(states[0], 9)
    assert whims(states[0], 9) != whims(states[1], 9)
