"""This process's one timer per match, and its seats' leases.

Every server process that has a socket on a match keeps one timer for that match, armed for
the earlier of two moments of the state it last framed:
- the next server-side move (`due_in_ms` in the room info: a CPU turn, a timed-out player,
  a timed game's deadline), in the match's one queue (`owner.submit_due`, on the process
  that writes the match): `autoplay.advance` plays it only if the match is still at the seq
  the timer was armed for, through the log's fence: whoever else races (the Celery task,
  a sweeper), exactly one wins;
- a timed game's next release moment (`frames.StateFrame.release_in_ms`): every socket of
  the match here re-sends its frame (`push_release(seq)`: the same seq, a higher part).

Why in-process as well as Celery: on embedded defaults the channel layer lives in
the ASGI process's memory, so a move made by a Celery worker could not reach the
sockets. Here the process that holds the sockets makes the move and its broadcast
reaches them directly. Celery (MATCHES_CELERY) and the beat sweeper cover matches
no process is watching, e.g. right after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from matches import owner, services
from matches.dbcall import background_call, db_call
from matches.epoch import ms_until

log = logging.getLogger(__name__)

SAME_MOMENT_S = 0.05  # a move due this close to the armed moment keeps the armed timer
OWNER_RECHECK_MS = 1000  # a timer of a match another process writes (matches/owner.py)


@dataclass
class _Timer:
    """A match's timer: for the state at `seq`, when its move is due and when its frames
    next grow (loop times, None: not due), and the one handle armed for the earlier."""

    seq: int
    move_at: float | None = None
    release_at: float | None = None
    handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class LocalDriver:
    """Per-process timers, and the leases of the seats this process has sockets for.

    Presence expires by itself: while a socket is open, this process renews its seats'
    leases every `MATCHES_PRESENCE_HEARTBEAT_S` (2 s) and sweeps (expired leases, overdue
    matches). A process that dies stops renewing; any other process's sweep (or Celery
    beat's) then counts those seats as gone from their last renewal, so the 45 s rule
    starts for them on every setup, the embedded one included.
    """

    def __init__(self) -> None:
        self._timers: dict[str, _Timer] = {}
        self._sockets_of: dict[str, set[Any]] = {}  # match -> its sockets here (releases)
        self._held: dict[str, Counter[int]] = {}  # match -> seat -> open sockets
        self._sockets = 0
        self._keeper: asyncio.Task | None = None

    # --- the timer ------------------------------------------------------------------------

    def schedule(self, match_id: str, seq: int, due_in_ms: int | None) -> None:
        """The state at `seq` has its server-side move due in `due_in_ms` (None: none)."""
        if not services.conf("INPROCESS_DRIVER", True):
            return
        timer = self._for(match_id, seq)
        if timer is None:
            return  # armed already for a later state
        if due_in_ms is None:
            timer.move_at = None
        else:
            when = asyncio.get_running_loop().time() + max(0, due_in_ms) / 1000
            if timer.move_at is not None and abs(timer.move_at - when) < SAME_MOMENT_S:
                return
            timer.move_at = when
        self._arm(match_id, timer)

    def release_in(self, match_id: str, seq: int, in_ms: int | None) -> None:
        """A timed game's frame at `seq` grows in `in_ms` (None: it will not). Frames of one
        state differ by their connection's lead: the earliest moment is kept."""
        timer = self._for(match_id, seq)
        if timer is None:
            return
        if in_ms is None:
            timer.release_at = None
        else:
            when = asyncio.get_running_loop().time() + max(0, in_ms) / 1000
            if timer.release_at is not None and timer.release_at <= when + 0.001:
                return  # an earlier (or the same) moment is armed
            timer.release_at = when
        self._arm(match_id, timer)

    def watch(self, match_id: str, socket: Any) -> None:
        """A socket whose frame is re-sent at the match's release moments."""
        self._sockets_of.setdefault(match_id, set()).add(socket)

    def unwatch(self, match_id: str, socket: Any) -> None:
        sockets = self._sockets_of.get(match_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self._sockets_of[match_id]

    def _for(self, match_id: str, seq: int) -> _Timer | None:
        """The match's timer for the state at `seq`: a later state starts afresh; None when
        the timer is for a later state already."""
        timer = self._timers.get(match_id)
        if timer is not None and timer.seq > seq:
            return None
        if timer is None or timer.seq < seq:
            if timer is not None:
                timer.cancel()
            timer = self._timers[match_id] = _Timer(seq)
        return timer

    def _arm(self, match_id: str, timer: _Timer) -> None:
        moments = [t for t in (timer.move_at, timer.release_at) if t is not None]
        if not moments:
            timer.cancel()
            del self._timers[match_id]
            return
        when = min(moments)
        if timer.handle is not None and timer.handle.when() == when:
            return
        timer.cancel()
        seq = timer.seq
        timer.handle = asyncio.get_running_loop().call_at(
            when, lambda: asyncio.ensure_future(self._fire(match_id, seq))
        )

    def cancel_all(self) -> None:
        """Forget every armed timer (the matches stay due: another process, Celery or the
        sweeper plays them). Used when this process's loop stops, and between tests."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._sockets_of.clear()
        if self._keeper is not None:
            self._keeper.cancel()
            self._keeper = None
        self._held.clear()
        self._sockets = 0

    # --- leases -------------------------------------------------------------------------

    def opened(self, match_id: str, seats: list[int]) -> None:
        """A socket of this process joined a match holding `seats` (none: a spectator)."""
        self._sockets += 1
        counter = self._held.setdefault(match_id, Counter())
        counter.update(seats)
        if self._keeper is None or self._keeper.done():
            self._keeper = asyncio.get_running_loop().create_task(self._keep())

    def closed(self, match_id: str, seats: list[int]) -> None:
        self._sockets = max(0, self._sockets - 1)
        counter = self._held.get(match_id)
        if counter is not None:
            counter.subtract(seats)
            if not +counter:
                del self._held[match_id]
        if self._sockets == 0 and self._keeper is not None:
            self._keeper.cancel()  # nothing to renew; the next socket starts it again
            self._keeper = None

    def held(self) -> dict[str, list[int]]:
        return {m: [i for i, n in c.items() if n > 0] for m, c in self._held.items()}

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(services.heartbeat_interval())
            try:
                # Off the acts' thread (dbcall.background_call): presence, and the search for
                # overdue matches; their moves then go through each match's queue (_sweep).
                await background_call(services.renew_leases)(self.held())
                if services.conf("INPROCESS_DRIVER", True):
                    find = services.collecting_notices(services.overdue)
                    due, notices = await background_call(find)(timedelta(seconds=1))
                    await services.send_notices(notices)
                    await self._sweep(due)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is down: try again next beat
                log.warning("presence heartbeat failed: %s", type(exc).__name__)

    async def _sweep(self, due: list[tuple[Any, int]]) -> None:
        """Overdue matches (no timer here played them: a restart, a dead process's match)
        played in their one queue, on the process that writes each (another owner's own
        timer and sweep play its matches; a dead owner's lease lapses, then this one's)."""
        for match_id, seq in due:
            try:
                for _ in range(services.SWEEP_MOVES):
                    if not await owner.writes_here(str(match_id)):
                        break
                    moved = await owner.submit_due(str(match_id), seq)
                    if moved is None:
                        break
                    seq = moved
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # one bad match must not stop the others
                log.error("sweeping a match failed: %s", type(exc).__name__)

    async def _fire(self, match_id: str, seq: int) -> None:
        timer = self._timers.get(match_id)
        if timer is None or timer.seq != seq:
            return  # re-armed for a later state meanwhile
        timer.handle = None
        now = asyncio.get_running_loop().time() + 0.002  # the loop may fire a hair early
        release = timer.release_at is not None and timer.release_at <= now
        move = timer.move_at is not None and timer.move_at <= now
        if release:
            timer.release_at = None
        if move:
            timer.move_at = None
        self._arm(match_id, timer)  # whatever is not due yet
        if release:
            for socket in list(self._sockets_of.get(match_id, ())):
                with contextlib.suppress(Exception):
                    await socket.push_release(seq)
        if move:
            await self._advance(match_id, seq)

    async def _advance(self, match_id: str, seq: int) -> None:
        try:
            if not await owner.writes_here(match_id):
                # Its owner's timer plays it. Looked at again in a second: an owner that
                # died lets its lease lapse, and this process takes the match.
                self.schedule(match_id, seq, OWNER_RECHECK_MS)
                return
            # The match's one queue, beside its people's acts.
            moved = await owner.submit_due(match_id, seq)
        except Exception as exc:  # an engine bug must not take the process down
            log.error("server-side move failed: %s", type(exc).__name__)
            return
        if moved is not None:
            return  # its on_commit notice re-arms the timers
        # Someone else moved (another process, a Celery worker whose notice may not
        # reach this process) or nothing was due yet: re-announce where the match is.
        row = await db_call(services.standing)(match_id)
        if row is None:
            return
        seq_now, _status, due_at = row
        if seq_now == seq and due_at is not None:
            left_ms = ms_until(due_at, timezone.now())
            if left_ms > 0:
                # Fired a hair before the move was due: arm again here, not only through a
                # notice (while the channel layer is down no notice re-arms it, and the
                # sweeper would play the move a second late).
                self.schedule(match_id, seq, left_ms)
                return
        # A new tag each time: every process reads the match again (and re-arms its timer).
        await services.send_notices([services.notice(match_id, seq_now, secrets.token_hex(6))])


driver = LocalDriver()
