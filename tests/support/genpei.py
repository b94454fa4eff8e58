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
    "L" a live card (lying on a side), "D" a dead one."""
    seats = [{"is_cpu": False}] * players
    for seed in range(1_000_000):
        state = engine.new_state(settings, seats, seed)
        field = set(engine.side_cards(state, 0)) | set(engine.side_cards(state, 1))
        order = "".join("L" if poem in field else "D" for poem in state["queue"])
        if order.startswith(opening):
            return seed
    raise AssertionError(f"no seed opens with {opening}")
