"""One writer per match (issue 40), behind `MATCHES_WRITER = "owner"` (default "legacy":
`groupcommit` + `moves.submit_action` + `autoplay.advance` under the row lock).

In this process every act on a match — a person's act from any of its sockets, and the
server's own move when the match's timer fires — enters that match's one queue and is
applied in order by one task: decided on the match's state in memory (this process's
snapshot), then written with no row lock. The fence is the log's unique `(match, seq)`: the
row is written at the in-memory seq + 1, in the transaction that stores the new state, so
if any other writer (another process, a Celery worker, a room change) wrote that seq first,
the INSERT loses, the whole transaction rolls back, and the writer reloads the match from
the database (the state stored with the last log row) and decides the act again on it. Two
writers can therefore never both commit a seq; a single writer never loses.

A queue's task ends when its queue is empty, so nothing here outlives the acts it was
given: no registry to clear between event loops or tests.
"""

from __future__ import annotations

import asyncio
import copy
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from gamekit import GameError
from matches import autoplay, protocol, snapshots
from matches.broadcast import collecting_notices, send_notices
from matches.conf import conf
from matches.dbcall import db_call
from matches.errors import MatchError
from matches.latency import Link
from matches.log import get_game
from matches.models import Action
from matches.moves import (
    Applied,
    Decided,
    _decide,
    _logged,
    _record_refusal,
    plan_ahead,
    record_move,
)

# A lost fence means another writer committed this seq: reload and decide again. A single
# writer never loses; two (a Redis outage, a room change beside a move) rarely lose twice.
RELOADS = 3


def enabled() -> bool:
    return conf("WRITER", "legacy") == "owner"


# --- the queue (event loop) ---------------------------------------------------------------


@dataclass
class _Queue:
    acts: list[tuple[Callable[[], Any], asyncio.Future]]
    task: asyncio.Task | None = None


# Each event loop's queues, by match; a queue is dropped once empty.
_queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Queue]] = (
    weakref.WeakKeyDictionary()
)


async def _enqueue(match_id: Any, act: Callable[[], Any]) -> Any:
    loop = asyncio.get_running_loop()
    queues = _queues.setdefault(loop, {})
    key = str(match_id)
    queue = queues.get(key)
    if queue is None:
        queue = queues[key] = _Queue([])
    future: asyncio.Future = loop.create_future()
    queue.acts.append((act, future))
    if queue.task is None:
        queue.task = loop.create_task(_drain(queues, key, queue))
    return await future


async def _drain(queues: dict[str, _Queue], key: str, queue: _Queue) -> None:
    """Apply the match's acts one at a time, in the order they came; then stop."""
    try:
        while queue.acts:
            act, future = queue.acts.pop(0)
            try:
                # On the database thread; the notices go out after the commit, before the
                # act's answer (so the acting socket's frame and the others' go together).
                result, notices = await db_call(collecting_notices(act))()
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
                continue
            await send_notices(notices)
            if not future.done():  # its socket may have gone meanwhile
                future.set_result(result)
    finally:
        queue.task = None
        if queues.get(key) is queue and not queue.acts:
            del queues[key]


async def submit_act(
    match_id: Any,
    held: Iterable[int],
    action: Mapping[str, Any],
    *,
    seat: int | None = None,
    action_id: str | None = None,
    expected_seq: int | None = None,
    arrived_ms: float | None = None,
    link: Link | None = None,
) -> Applied:
    """A person's act, through the match's queue (`apply_act`)."""
    held = list(held)
    kwargs = {
        "seat": seat, "action_id": action_id, "expected_seq": expected_seq,
        "arrived_ms": arrived_ms, "link": link,
    }  # fmt: skip
    return await _enqueue(match_id, lambda: apply_act(match_id, held, action, **kwargs))


async def submit_due(match_id: Any, expected_seq: int) -> int | None:
    """The server's move due at `expected_seq` (the match's timer fired), through the queue."""
    return await _enqueue(match_id, lambda: apply_due(match_id, expected_seq))


# --- applying (database thread) -----------------------------------------------------------


class _FenceLost(Exception):
    """Another writer committed the seq this act was to be written at."""


def _fenced(write: Callable[[], int]) -> int:
    """Run `write` in one transaction; a unique-constraint loss on the log is the fence."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError as exc:
        raise _FenceLost from exc


def apply_act(
    match_id: Any,
    held: list[int],
    action: Mapping[str, Any],
    *,
    seat: int | None = None,
    action_id: str | None = None,
    expected_seq: int | None = None,
    arrived_ms: float | None = None,
    link: Link | None = None,
) -> Applied:
    """Decide a person's act on the state in memory and write it at seq + 1 (the fence).

    A refusal decided on memory is confirmed on a fresh read before it is sent (another
    process may have written meanwhile). Returns Applied; raises MatchError/GameError."""
    action = protocol.check_action(action)  # bounded before any game sees it
    snap, reloaded = snapshots.current(match_id), False
    for _ in range(RELOADS + 1):
        now = timezone.now()
        try:
            decision = _decide(
                snap, held, action, seat, action_id, expected_seq, now, arrived_ms, link
            )
        except (MatchError, GameError) as exc:
            if not reloaded:
                snap, reloaded = snapshots.current(match_id, fresh=True), True
                continue
            earlier = _logged(match_id, held, action_id)
            if earlier is None:
                if getattr(exc, "logged", False):
                    _record_refusal(match_id, exc, quiet=getattr(exc, "quiet", False))
                raise
            return earlier
        if isinstance(decision, Applied):
            return decision
        try:
            return Applied(
                _fenced(lambda d=decision, s=snap, t=now: _write_act(s, d, action_id, t))
            )
        except _FenceLost:
            earlier = _logged(match_id, held, action_id)  # or the same id, written before
            if earlier is not None:
                return earlier
            snap, reloaded = snapshots.current(match_id, fresh=True), True
    raise MatchError("stale")  # other writers kept committing first; the client gets the view


def _write_act(
    snap: snapshots.Snapshot, decision: Decided, action_id: str | None, now: datetime
) -> int:
    plan_ahead(snap, decision.state, snap.seats)  # the CPU's next plans, before the write
    match = copy.copy(snap.match)
    record_move(
        match, get_game(match), snap.seats, decision.seat, decision.action, decision.state,
        decision.events, decision.before, Action.Actor.HUMAN, now, action_id,
    )  # fmt: skip
    return match.seq


def apply_due(match_id: Any, expected_seq: int) -> int | None:
    """The server's move due at `expected_seq`: a CPU's play or a deadline the game set,
    decided on the state in memory and written through the fence. Anything that depends on
    who is present (a person away past the grace, a due time to recompute) is left to the
    locked path, `autoplay.advance`, which reads the seats fresh."""
    snap = snapshots.current(match_id)
    if snap.match.seq < expected_seq:
        snap = snapshots.current(match_id, fresh=True)  # this process's copy is behind
    if snap.match.seq != expected_seq:
        return None  # moved on: this timer's move was played, or another is due now
    now = timezone.now()
    ahead = autoplay._move_ahead(snap, snap.seats, now)
    if ahead is None or ahead.pick.actor == Action.Actor.TIMEOUT:
        return autoplay.advance(match_id, expected_seq)
    game = get_game(snap.match)

    def write() -> int:
        match = copy.copy(snap.match)
        before = game.to_act(snap.state)
        move = ahead.move
        record_move(
            match, game, snap.seats, ahead.pick.seat, move.action, move.state, move.events,
            before, ahead.pick.actor, now,
        )  # fmt: skip
        return match.seq

    try:
        return _fenced(write)
    except _FenceLost:
        snapshots.forget(match_id)  # another writer moved it: the next frame reads it again
        return None
