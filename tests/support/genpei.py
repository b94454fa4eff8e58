"""Genpei games short enough for the suite: a deal whose readings open as a test needs them,
live cards (on a side) and dead ones where it says (a poem subset lays out half its poems
and reads the other half as dead cards, so a random deal spends about half its readings on
cards nobody may touch). The game is played for real from that seed; only the waits on
readings the test does not need are cut."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.karuta import engine


def seed_opening(settings: Mapping[str, Any], players: int, opening: str) -> int:
    """The first seed whose reading order opens as `opening` says, reading by reading:
    "L" a live card (lying on a side), "A" or "B" one on the first or the second team's
    side, "D" a dead one."""
    seats = [{"is_cpu": False}] * players
    for seed in range(1_000_000):
        state = engine.new_state(settings, seats, seed)
        sides = [set(engine.side_cards(state, side)) for side in (0, 1)]
        order = [
            "A" if poem in sides[0] else "B" if poem in sides[1] else "D" for poem in state["queue"]
        ]
        if all(
            want == got or (want == "L" and got != "D")
            for want, got in zip(opening, order, strict=False)
        ):
            return seed
    raise AssertionError(f"no seed opens with {opening}")
