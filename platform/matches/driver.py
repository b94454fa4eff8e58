"""In-process timers for server-side moves (CPU turns, timed-out players).

Every server process that has a socket on a match arms one timer for that match's
next due move (`due_in_ms` in the room info). When it fires, `services.advance`
plays the move only if the match is still at the seq the timer was armed for, under
the row lock: several processes (and the Celery task) may race, exactly one wins.

Why in-process as well as Celery: on embedded defaults the channel layer lives in
the ASGI process's memory, so a move made by a Celery worker could not reach the
sockets. Here the process that holds the sockets makes the move and its broadcast
reaches them directly. Celery (MATCHES_CELERY) and the beat sweeper cover matches
no process is watching, e.g. right after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from datetime import timedelta

from matches import release, services
from matches.dbcall import db_call
from matches.models import Match

log = logging.getLogger(__name__)


class LocalDriver:
    """Per-process timers, and the leases of the seats this process has sockets for.

    Presence expires by itself: while a socket is open, this process renews its seats'
    leases every `MATCHES_PRESENCE_HEARTBEAT_S` (5 s) and sweeps (expired leases, overdue
    matches). A process that dies stops renewing; any other process's sweep (or Celery
    beat's) then counts those seats as gone from their last renewal, so the 45 s rule
    starts for them on every setup, the embedded one included.
    """

    def __init__(self) -> None:
        self._timers: dict[str, tuple[int, float, asyncio.TimerHandle]] = {}
        self._held: dict[str, Counter[int]] = {}  # match -> seat -> open sockets
        self._sockets = 0
        self._keeper: asyncio.Task | None = None
        self.beats = 0  # lease renewals done (tests wait on it instead of sleeping)

    def schedule(self, match_id: str, seq: int, due_in_ms: int | None) -> None:
        if not services.conf("INPROCESS_DRIVER", True):
            return
        loop = asyncio.get_running_loop()
        current = self._timers.get(match_id)
        if due_in_ms is None:
            if current and current[0] <= seq:
                current[2].cancel()
                del self._timers[match_id]
            return
        when = loop.time() + max(0, due_in_ms) / 1000
        if current:
            if current[0] > seq:
                return  # armed already for a later state
            if current[0] == seq and abs(current[1] - when) < 0.05:
                return
            current[2].cancel()
        handle = loop.call_at(when, lambda: asyncio.ensure_future(self._fire(match_id, seq)))
        self._timers[match_id] = (seq, when, handle)

    def cancel_all(self) -> None:
        """Forget every armed timer (the matches stay due: another process, Celery or the
        sweeper plays them). Used when this process's loop stops, and between tests."""
        for _seq, _when, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        release.timers.cancel_all()  # this process's release timers go with its loop
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
                await db_call(services.renew_leases)(self.held())
                self.beats += 1
                if services.conf("INPROCESS_DRIVER", True):
                    _moved, notices = await db_call(services.collecting_notices(services.sweep))(
                        timedelta(seconds=1)
                    )
                    await services.send_notices(notices)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is down: try again next beat
                log.warning("presence heartbeat failed: %s", type(exc).__name__)

    async def _fire(self, match_id: str, seq: int) -> None:
        current = self._timers.get(match_id)
        if current and current[0] == seq:
            del self._timers[match_id]
        try:
            moved, notices = await db_call(services.collecting_notices(services.advance))(
                match_id, seq
            )
            await services.send_notices(notices)
        except Exception as exc:  # an engine bug must not take the process down
            log.error("server-side move failed: %s", type(exc).__name__)
            return
        if moved is not None:
            return  # its on_commit notice re-arms the timers
        # Someone else moved (another process, a Celery worker whose notice may not
        # reach this process) or nothing was due yet: re-announce where the match is.
        row = await db_call(Match.objects.standing)(match_id)
        if row is None:
            return
        # A new tag each time: every process reads the match again (and re-arms its timer).
        await services.send_notices([services.notice(match_id, row[0], secrets.token_hex(6))])


driver = LocalDriver()
