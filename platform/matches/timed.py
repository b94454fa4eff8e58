"""Timed play in the match layer: the one module that calls a `gamekit.TimedGame`'s hooks
(karuta). A plain `Game` passes through every function here unchanged.

- **`at`**: every state of a timed game begins at a server epoch ms, kept on the match row
  as `turns["at"]` (saved with the move, carried by move notices): the decision time of the
  action that made it (or the start). Room lines (joins, invites, leaves) do not move it.
- **Stamps**: before the game sees an action, the platform writes `action["stamp"]`
  (`gamekit.STAMP`) — `arrival` (ms after `at` at which the frame was received),
  `decided` (ms after `at` at which it was decided: the next state's `at`), `owd` and
  `jitter` (the actor's connection's one-way delay and round-trip spread, `latency.py`),
  `server` (the server's own move). Whatever a client put there is overwritten. Stamps are
  logged: replay is exact.
- **Frames**: a timed game's state frame carries `at` and `part`, and its view is
  `released_view(view, now − at, lead)`: full views stay cached per seat in the snapshot,
  the trim is per frame. `part` counts the release moments passed since `at`
  (`release_times`), so every process numbers a state's frames alike. `Released.next_in_ms`
  (the frame's `release_in_ms`, never sent) says when the frame next changes: the socket
  arms the match's one timer with it (`driver.LocalDriver.release_in`), which re-sends the
  frames of its sockets then.
- **Due times**: a CPU's move is due when `play_at` says for its plan (a touch at its time),
  and any seat is played for at its `deadline` (a judging window closing); `clock.py` folds
  them into the match's `due_at`, so the driver, Celery and the sweeper play them, and a
  restart recomputes them from the match row. The plan is only looked up here
  (`cpu.planned`): this runs inside a write's transaction, where no CPU policy runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from gamekit import STAMP, Game, timed
from matches import cpu
from matches.epoch import epoch_ms, moment
from matches.latency import Link

# The most a connection's measured one-way delay adds to its lead. The delay is measured by
# the server (latency.py), but a client can make it look longer by holding pongs; beyond
# this it gains nothing. The judge allows late claims up to the same bound (karuta/judge.py).
MAX_LINK_LEAD_MS = 400


def lead_ms(owd: int | None = None) -> int:
    """How long before its time a kana (or the poem, once decided) leaves the server for a
    connection whose one-way delay is `owd`: the lead `MATCHES_RELEASE_LEAD_MS` (150 ms)
    plus that delay, so it *arrives* the same lead before it is due on every link — enough
    to be drawn on time, too little to be of use to a person (below a human reaction).
    A fixed lead would hand the near player the race: over a 200 ms link a kana would
    arrive 50 ms after it is due (bench/bench_karuta_fairness.py)."""
    base = int(getattr(settings, "MATCHES_RELEASE_LEAD_MS", 150))
    return base + min(max(owd or 0, 0), MAX_LINK_LEAD_MS)


def state_at(match: Any) -> int | None:
    """The server epoch ms at which the match's current state began (timed games)."""
    at = (match.turns or {}).get("at")
    return at if isinstance(at, int) else None


def begin_state(match: Any, game: Game, now: datetime) -> None:
    """A new game state begins `now` (a move, or the start): remember it on the match row."""
    if timed(game) is not None:
        match.turns = {**(match.turns or {}), "at": epoch_ms(now)}


def stamp(
    game: Game,
    match: Any,
    action: dict[str, Any],
    now: datetime,
    arrived_ms: float | None = None,
    link: Link | None = None,
    server: bool = False,
) -> dict[str, Any]:
    """The action with the platform's timing stamp (timed games; others unchanged)."""
    if timed(game) is None:
        return action
    now_ms = epoch_ms(now)
    at = state_at(match)
    at = now_ms if at is None else at
    decided = now_ms - at
    arrival = decided if arrived_ms is None else min(decided, int(arrived_ms) - at)
    stamped = {key: value for key, value in action.items() if key != STAMP}
    stamped[STAMP] = {
        "arrival": arrival,
        "decided": decided,
        # The server's own moves claim nothing and travel over no link.
        "owd": None if server or link is None else link.owd,
        "jitter": None if server or link is None else link.jitter,
        "server": server,
    }
    return stamped


@dataclass(frozen=True, slots=True)
class Released:
    """What of a timed game's state a connection is sent now: the view as released, when
    the state began (`at`, epoch ms), how much is out (`part`), and whether and when the
    frame grows again (`grows`: a view to release; `next_in_ms`: None, it will not)."""

    view: Any
    at: int
    part: int
    grows: bool = False
    next_in_ms: int | None = None


def released(
    game: Game, match: Any, view: Any, now: datetime, owd: int | None = None
) -> Released | None:
    """A timed game's view as released `now` for a connection whose one-way delay is `owd`;
    None for a game (or a state) without timed play."""
    clocked = timed(game)
    at = state_at(match)
    if clocked is None or at is None:
        return None
    if view is None:
        return Released(None, at, 0)
    lead = lead_ms(owd)
    elapsed = epoch_ms(now) - at
    times = clocked.release_times(view, lead)
    part = sum(1 for t in times if 0 < t <= elapsed)
    upcoming = [t for t in times if t > elapsed]
    next_in_ms = upcoming[0] - elapsed if upcoming else None
    return Released(clocked.released_view(view, elapsed, lead), at, part, True, next_in_ms)


# --- server moves ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServerDue:
    """When the server acts for a seat (None: not due), and the action it then plays (None:
    the usual move, the CPU's)."""

    when: datetime | None
    action: dict[str, Any] | None = None


def due(
    match: Any,
    game: Game,
    state: Any,
    index: int,
    base: datetime | None,
    level: str,
    cpu_seat: bool,
    now: datetime,
) -> ServerDue:
    """When the server acts for a seat, and the action it then plays (None: the usual move,
    the CPU's). `base`: the usual due time (CPU pacing; for a person, the 45 s rule, None
    while present); `level`: the CPU level that would play the seat. A game without timed
    play: `base`, unchanged.

    A plan not made yet (this process did not plan this state for the seat) gives the
    earliest it could be due: `now` for a CPU (its touch may come before the pacing), `base`
    for an absent person (the 45 s rule comes first). The timer then fires early, the move
    path plans outside the write, finds the move not due and sets the true time."""
    clocked = timed(game)
    at = state_at(match)
    if clocked is None or at is None or state is None:
        return ServerDue(base)
    when, action = base, None
    if base is not None:
        plan = cpu.planned(game, match, state, index, level)
        if plan is None:
            when = min(base, now) if cpu_seat else base
        else:
            planned = clocked.play_at(state, index, plan)
            if planned is not None:
                at_plan = moment(at + planned)
                # A CPU plays at its time; for an absent person the 45 s rule comes first.
                when = at_plan if cpu_seat else max(base, at_plan)
    deadline = clocked.deadline(state, index)
    if deadline is not None:
        closes = moment(at + deadline[0])
        if when is None or closes < when:
            when, action = closes, deadline[1]
    return ServerDue(when, action)
