"""Hand-built Bakudan tables for the tests: every card named by kind, ids made up."""

from __future__ import annotations

import itertools

from games.bakudan import engine
from games.bakudan.engine import BakudanState


def build(
    hands: list[list[str]],
    deck: list[str],
    *,
    to_act: int = 0,
    owed: int = 1,
    cpu: list[str | None] | None = None,
    seed: int = 7,
) -> BakudanState:
    """A table with these hands and this deck (top first). Card ids are `<kind>-<n>`."""
    counter = itertools.count()
    kinds: dict[str, str] = {}

    def card(kind: str) -> str:
        assert kind in engine.KINDS, kind
        card_id = f"{kind}-{next(counter)}"
        kinds[card_id] = kind
        return card_id

    players = len(hands)
    return BakudanState(
        players=players,
        seed=seed,
        number="",
        cpu=list(cpu) if cpu else [None] * players,
        kinds=kinds,
        hands=[[card(kind) for kind in hand] for hand in hands],
        deck=[card(kind) for kind in deck],
        discard=[],
        shields=[None] * players,
        alive=[True] * players,
        places=[None] * players,
        notes=[{} for _ in range(players)],
        last_draw=[None] * players,
        to_act=to_act,
        owed=owed,
    )


def find(state: BakudanState, seat: int, kind: str) -> str:
    """The id of a card of this kind in the seat's hand."""
    return next(c for c in state.hands[seat] if state.kinds[c] == kind)


def play(state: BakudanState, seat: int, kind: str, **extra):
    return engine.apply(state, seat, {"type": "play", "card": find(state, seat, kind), **extra})


def draw(state: BakudanState, seat: int):
    return engine.apply(state, seat, {"type": "draw"})


def kinds_of(state: BakudanState, cards: list[str]) -> list[str]:
    return [state.kinds[c] for c in cards]


def plain(events) -> list[dict]:
    """Events as the seat in `only` sees them (Private unwrapped)."""
    return [dict(getattr(e, "event", e)) for e in events]


def types(events) -> list[str]:
    return [e["type"] for e in plain(events)]
