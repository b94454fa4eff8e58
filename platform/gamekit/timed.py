"""Timed play: the one optional capability of the plugin contract (karuta has it; Bozu and
Bakudan do not).

A game opts in by subclassing `TimedGame` instead of `Game`. Several of its seats may act at
once and its actions carry times, so the platform (matches/timed.py, the only module of the
match layer that calls these hooks):
- stamps each action with its timing under `STAMP` before `apply` sees it;
- sends each state frame with the moment its state began (`at`) and a view released just in
  time (`released_view`, re-sent at each of `release_times`);
- plays a CPU's move when the game says (`play_at`), and any seat's move at its `deadline`;
- seeds a CPU's plan with `cpu_key`, so another seat's move does not redraw it.

All times are ms after the moment the state began (the decision of the action that made it);
the platform passes them in, the game keeps no clock.
"""

from __future__ import annotations

from typing import Any

from gamekit.base import Action, Game, State

# The key under which the platform stamps every action of a timed game with its timing:
# {"arrival": ms, "decided": ms, "owd": ms | None, "jitter": ms | None, "server": bool}, ms
# since the current state began, measured by the server (docs/protocol.md, "Timed games").
# A client cannot set it: the platform overwrites it. It is logged with the action.
STAMP = "stamp"


class TimedGame(Game):
    """A `Game` whose play runs against the clock. Override the hooks the game needs; the
    defaults are those of a game that releases everything at once and sets no deadline."""

    def released_view(self, view: dict[str, Any], elapsed_ms: int, lead_ms: int) -> dict[str, Any]:
        """`view` as a client may have it `elapsed_ms` after the state began: only what is due
        by then plus `lead_ms` (or, for what gets no lead, due by then). Must not change
        `view` (the platform caches it)."""
        return view

    def release_times(self, view: dict[str, Any], lead_ms: int) -> list[int]:
        """The moments at which `released_view` changes, sorted (the platform re-sends the
        frame at each)."""
        return []

    def play_at(self, state: State, seat: int, action: Action) -> int | None:
        """When the server plays `action`, a CPU's move for `seat` (e.g. a touch at its time);
        None: the platform's usual pacing (`cpu_delay_ms`)."""
        return None

    def deadline(self, state: State, seat: int) -> tuple[int, dict[str, Any]] | None:
        """(when, action): the server plays `action` for `seat` then if it has not acted (a
        judging window closing), for a person's seat as for a CPU's. None: no deadline."""
        return None

    def cpu_key(self, state: State, seat: int) -> str | None:
        """A key that stays the same while a CPU's decision must not change (its random draws
        are seeded with it instead of the log's seq, so a move by another seat does not
        redraw a planned touch). None: the seq."""
        return None


def timed(game: Game) -> TimedGame | None:
    """The game as a `TimedGame`, or None for a game without timed play."""
    return game if isinstance(game, TimedGame) else None
