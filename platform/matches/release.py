"""Timed games (`Game.realtime`, karuta): when each state began, arrival stamps, frames
released just in time, the server's timed moves, and this process's release timers.

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
  `Game.released_view(view, now − at, lead)`: full views stay cached per seat in the
  snapshot, the trim is per frame. `part` counts the release moments passed since `at`
  (`Game.release_times`), so every process numbers a state's frames alike.
- **Timers**: each process with sockets on a match arms one timer for the next release
  moment and re-sends its sockets' frames then (same seq, higher part). Nothing else
  needs them: a Celery worker or another process only ever makes moves.
- **Server moves**: a CPU's move in a timed game (planned by `cpu.plan`) is played when
  `Game.play_at` says (a touch at its time), and any seat is played for at its
  `Game.deadline` (a judging window closing); both are due times like any other
  (`clock.py`), so the in-process driver, Celery and the sweeper play them, and they are
  recomputed from the match row after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from gamekit import STAMP, Game
from matches.cpu import plan as cpu_plan
from matches.latency import Link

log = logging.getLogger(__name__)

NEXT = "_release_in_ms"  # a frame's private key: when to send it again (popped, never sent)


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


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def state_at(match: Any) -> int | None:
    """The server epoch ms at which the match's current state began (timed games)."""
    at = (match.turns or {}).get("at")
    return at if isinstance(at, int) else None


def begin_state(match: Any, game: Game, now: datetime) -> None:
    """A new game state begins `now` (a move, or the start): remember it on the match row."""
    if game.realtime:
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
    if not game.realtime:
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


def timed_frame(
    frame: dict[str, Any], game: Game, match: Any, now: datetime, owd: int | None = None
) -> None:
    """Trim a timed game's frame to what is released `now` for a connection whose one-way
    delay is `owd`; add `at` and `part` (and the private NEXT key: ms until the frame
    changes, None if it will not)."""
    at = state_at(match)
    view = frame.get("view")
    if not game.realtime or at is None:
        return
    frame["at"] = at
    if view is None:
        frame["part"] = 0
        return
    lead = lead_ms(owd)
    elapsed = epoch_ms(now) - at
    times = game.release_times(view, lead)
    passed = [t for t in times if t <= elapsed]
    frame["part"] = sum(1 for t in passed if t > 0)
    upcoming = [t for t in times if t > elapsed]
    frame[NEXT] = upcoming[0] - elapsed if upcoming else None
    frame["view"] = game.released_view(view, elapsed, lead)


# --- server moves ------------------------------------------------------------------------


def timed_due(
    match: Any,
    game: Game,
    state: Any,
    index: int,
    base: datetime | None,
    level: str,
    cpu: bool,
) -> tuple[datetime | None, dict[str, Any] | None]:
    """When the server acts for a seat of a timed game, and the action it then plays (None:
    the usual move, the CPU's). `base`: the usual due time (CPU pacing; for a person, the
    45 s rule, None while present); `level`: the CPU level that would play the seat."""
    at = state_at(match)
    if not game.realtime or at is None or state is None:
        return base, None
    due, action = base, None
    if base is not None:
        planned = game.play_at(state, index, cpu_plan(game, match, state, index, level))
        if planned is not None:
            when = moment(at + planned)
            # A CPU plays at its time; for an absent person the 45 s rule comes first.
            due = when if cpu else max(base, when)
    deadline = game.deadline(state, index)
    if deadline is not None:
        when = moment(at + deadline[0])
        if due is None or when < due:
            due, action = when, deadline[1]
    return due, action


# --- this process's release timers ---------------------------------------------------------


class ReleaseTimers:
    """One timer per match this process has sockets on: at the next release moment, every
    socket of the match here re-sends its frame (`consumer.push_release(seq)`)."""

    def __init__(self) -> None:
        self._timers: dict[str, tuple[int, float, asyncio.TimerHandle]] = {}
        self._sockets: dict[str, set[Any]] = {}
        self.fired = 0  # releases sent (tests wait on it)

    def watch(self, match_id: str, socket: Any) -> None:
        self._sockets.setdefault(match_id, set()).add(socket)

    def unwatch(self, match_id: str, socket: Any) -> None:
        sockets = self._sockets.get(match_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self._sockets[match_id]
                self._cancel(match_id)

    def arm(self, match_id: str, seq: int, in_ms: int | None) -> None:
        """The frame at `seq` changes in `in_ms` (None: it will not)."""
        current = self._timers.get(match_id)
        if in_ms is None:
            if current and current[0] <= seq:
                self._cancel(match_id)
            return
        loop = asyncio.get_running_loop()
        when = loop.time() + max(0, in_ms) / 1000
        if current:
            if current[0] > seq:
                return  # armed for a later state already
            if current[0] == seq and current[1] <= when + 0.001:
                return  # an earlier (or the same) moment is armed
            current[2].cancel()
        handle = loop.call_at(when, lambda: asyncio.ensure_future(self._fire(match_id, seq)))
        self._timers[match_id] = (seq, when, handle)

    def _cancel(self, match_id: str) -> None:
        current = self._timers.pop(match_id, None)
        if current:
            current[2].cancel()

    def cancel_all(self) -> None:
        for _seq, _when, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._sockets.clear()

    async def _fire(self, match_id: str, seq: int) -> None:
        current = self._timers.get(match_id)
        if current and current[0] == seq:
            del self._timers[match_id]
        self.fired += 1
        for socket in list(self._sockets.get(match_id, ())):
            with contextlib.suppress(Exception):
                await socket.push_release(seq)


timers = ReleaseTimers()
