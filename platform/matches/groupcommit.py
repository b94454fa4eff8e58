"""Group commit: the acts that a process's sockets hand in while its database thread is busy
(or within one event-loop turn) are written in one transaction, with one trip to that thread.

It is the queue of matches/owner.py: each act is still `moves.submit_action` (or a timer's
`autoplay.advance`), decided and checked on its own, and a refusal, a lost fence (another
writer committed that seq first) or a duplicate id leaves nothing of that act: a move's
first write is the fence, which refuses without an error (moves._write_act; a move that
ends the match, and the rarer writes, keep a savepoint of their own). The seats of the
group's matches are read in one query at its start (movesql.seats_read_ahead). A group
holds at most one act per match (a second waits for the next group). Nothing is
acknowledged before the group's commit (a restart loses no acknowledged move), and the
group's notices go out after it. Matches are written in id order within a group, so two
processes' groups never wait on each other's match rows in a cycle. If the commit itself
fails, every act of the group gets that error and none was applied; the client sends them
again with the same ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, transaction

from matches.broadcast import collecting_notices, send_notices
from matches.dbcall import db_call
from matches.movesql import seats_read_ahead

Pending = tuple[tuple[Any, ...], dict[str, Any], asyncio.Future]


class GroupCommit:
    """One per process (per event loop): `await acts.submit(match_id, …)`."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.waiting: list[Pending] = []
        self.running: asyncio.Task | None = None

    async def submit(self, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self.waiting.append((args, kwargs, future))
        if self.running is not None and self.running.get_loop() is not loop:
            # A new event loop (tests run one each): what the old one left cannot be answered.
            self.waiting = [p for p in self.waiting if p[2].get_loop() is loop]
            self.running = None
        if self.running is None or self.running.done():
            # The writer starts on the next loop turn: acts arriving in this one join it.
            self.running = loop.create_task(self._write())
        return await future

    async def _write(self) -> None:
        await asyncio.sleep(0)
        while self.waiting:
            group, self.waiting = _one_per_match(self.waiting)
            try:
                outcomes, notices = await db_call(collecting_notices(self._commit))(group)
            except Exception as exc:  # the transaction as a whole failed: nothing applied
                for _args, _kwargs, future in group:
                    if not future.done():
                        future.set_exception(exc)
                continue
            await send_notices(notices)  # after the commit, before any act is acknowledged
            for (_args, _kwargs, future), (ok, value) in zip(group, outcomes, strict=True):
                if future.done():
                    continue  # its socket went away meanwhile
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _commit(self, group: list[Pending]) -> list[tuple[bool, Any]]:
        """On the database thread: every act of the group, one transaction."""
        if len(group) == 1:
            return [self._one(group[0])]
        outcomes: list[tuple[bool, Any]] = [(False, RuntimeError("not run"))] * len(group)
        order = sorted(range(len(group)), key=lambda i: str(group[i][0][0]))
        # Every match's seats in one query (a move reads its match's before its write).
        with transaction.atomic(), seats_read_ahead(group[i][0][0] for i in order):
            for i in order:
                outcomes[i] = self._one(group[i])
        return outcomes

    def _one(self, pending: Pending) -> tuple[bool, Any]:
        args, kwargs, _future = pending
        try:
            return True, self.function(*args, **kwargs)
        except DatabaseError:
            raise  # the transaction is broken (PostgreSQL aborts it): the whole group fails
        except Exception as exc:  # a refusal: this act's own savepoint was rolled back
            return False, exc


def _one_per_match(waiting: list[Pending]) -> tuple[list[Pending], list[Pending]]:
    """The next group, at most one act per match, and the acts left for the groups after.

    A second act on a match in the same transaction would be decided on a read of the
    first's uncommitted write, which the process's snapshot cache would then show to
    sockets before the commit; in the next group it is decided on the committed move."""
    group: list[Pending] = []
    later: list[Pending] = []
    matches: set[str] = set()
    for pending in waiting:
        match_id = str(pending[0][0])
        (later if match_id in matches else group).append(pending)
        matches.add(match_id)
    return group, later
