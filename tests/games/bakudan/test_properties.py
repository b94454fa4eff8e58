"""Properties over many seeded games, 2–5 players: the deck never runs out, games end, cards
are conserved, notes tell the truth, and no view or event shows a card its seat may not know."""

from __future__ import annotations

import json
import random
import re

import pytest

from gamekit.events import encode, for_viewer
from games.bakudan import cpu, engine

CARD_ID = re.compile(r"\bc[0-9a-f]{8}\b")
GAMES_PER_COUNT = 60  # x 4 player counts x 2 ways of choosing moves = 480 games


def ids_in(data) -> set[str]:
    return set(CARD_ID.findall(json.dumps(data)))


def known_to(state: engine.BakudanState, seat: int | None) -> set[str]:
    """Every card id `seat` may see now: public cards (discard pile, shields in front), its own
    hand, the cards its notes name, and the bomb it must put back."""
    public = set(state.discard) | {c for c in state.shields if c is not None}
    if seat is None:
        return public
    mine = set(state.hands[seat]) | set(state.notes[seat].values())
    if state.pending is not None and state.to_act == seat:
        mine.add(state.pending)
    return public | mine


def check_invariants(state: engine.BakudanState) -> None:
    every = (
        state.deck
        + [c for hand in state.hands for c in hand]
        + state.discard
        + [c for c in state.shields if c is not None]
        + ([state.pending] if state.pending else [])
    )
    assert sorted(every) == sorted(state.kinds), "a card was lost or doubled"
    bombs = state.bombs_in_deck() + (state.pending is not None)
    assert bombs == state.alive_count() - 1
    if not state.over:
        assert state.deck or state.pending, "the deck ran out"
        assert state.alive[state.to_act] and state.owed in (1, 2)
    for notes in state.notes:
        for position, card in notes.items():
            assert state.deck[position] == card, "a note lies"
    for seat in range(state.players):
        if not state.alive[seat]:
            assert state.hands[seat] == [] and state.notes[seat] == {}


def check_no_leak(state, before, events) -> None:
    stored = encode(events)
    for seat in [None, *range(state.players)]:
        view = engine.view(state, seat)
        if not state.over:  # the game number fixes the deal: not while the game runs
            assert state.number not in json.dumps(view)
        allowed = known_to(state, seat)
        leaked = ids_in(view) - allowed
        assert not leaked, f"seat {seat}'s view shows {leaked}"
        if seat is not None:
            assert {n["position"] for n in view["notes"]} == set(state.notes[seat])
        seen = ids_in(for_viewer(stored, seat))
        leaked = seen - allowed - known_to(before, seat)
        assert not leaked, f"seat {seat} was told about {leaked}"


def random_mover(rng: random.Random):
    def move(state):
        return rng.choice(engine.legal_actions(state, state.to_act))

    return move


def cpu_mover(levels):
    policy = cpu.seat_policy(levels)

    def move(state):
        seat = state.to_act
        return policy(engine.view(state, seat), seat, engine.cpu_rng(state, seat))

    return move


def play_checked(state, move, rng: random.Random) -> engine.BakudanState:
    bound = 3 * len(state.kinds)  # every move uses up a card, a draw, or a spent nipper
    for _ in range(bound):
        if state.over:
            return state
        if rng.random() < 0.01:  # now and then somebody leaves
            seat = rng.choice([s for s in range(state.players) if state.alive[s]])
            after, events = engine.remove_seat(state, seat)
        else:
            after, events = engine.apply(state, state.to_act, move(state))
        check_invariants(after)
        check_no_leak(after, state, events)
        state = after
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("how", ["random", "cpu"])
def test_many_seeded_games_end_and_never_leak(players, how):
    outcomes = set()
    for n in range(GAMES_PER_COUNT):
        seed = players * 100_000 + n
        rng = random.Random(seed)
        state = engine.deal(players, seed, number=f"NUMBER-{seed}")
        if how == "random":
            move = random_mover(rng)
        else:
            move = cpu_mover([rng.choice(cpu.PERSONALITIES) for _ in range(players)])
        check_invariants(state)
        end = play_checked(state, move, rng)
        assert end.over and end.alive_count() == 1 and end.places[end.winner] == 1
        assert sorted(p for p in end.places) == list(range(1, players + 1))
        outcomes.add(end.winner)
    assert len(outcomes) >= 2  # not a fixed winner


def test_a_leaky_view_would_be_caught():
    """The checker itself: a view showing the top card is flagged."""
    state = engine.deal(3, 1)
    view = engine.view(state, 0)
    view["top"] = state.deck[0]
    assert state.deck[0] in ids_in(view) - known_to(state, 0)


def test_dump_and_load_round_trip_through_json():
    state = engine.deal(4, 77)
    rng = random.Random(1)
    for _ in range(25):
        state, _ = engine.apply(
            state, state.to_act, rng.choice(engine.legal_actions(state, state.to_act))
        )
        loaded = engine.load(json.loads(json.dumps(engine.dump(state))))
        assert engine.dump(loaded) == engine.dump(state)
        assert engine.view(loaded, 1) == engine.view(state, 1)
        if state.over:
            break
