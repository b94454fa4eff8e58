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

from matches import services
from matches.dbcall import db_call
from matches.models import Match

log = logging.getLogger(__name__)


class LocalDriver:
    def __init__(self) -> None:
        self._timers: dict[str, tuple[int, float, asyncio.TimerHandle]] = {}

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
        row = await db_call(
            lambda: Match.objects.filter(pk=match_id).values_list("seq", "status").first()
        )()
        if row is None:
            return
        # A new tag each time: every process reads the match again (and re-arms its timer).
        await services.send_notices([services.notice(match_id, row[0], secrets.token_hex(6))])


driver = LocalDriver()
