"""After a commit: refresh this process's snapshot, tell the match's group where it stands,
queue the Celery timer (by task name: nothing here imports the tasks).

Notices are hints ("match M is at seq S", a move's log row for other processes'
snapshots); each consumer builds its own seat's frame. Lost notices are healed by resync,
ping, or the resync a socket does when the channel layer comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.db import transaction

from matches import snapshots
from matches.clock import conf
from matches.dbcall import db_call
from matches.models import Action, Match, Seat, group_name

log = logging.getLogger(__name__)


# Inside a consumer's database call, notices are collected here and sent by the
# consumer on the event loop once the call returns (still after the commit), so the
# process's one database thread does not wait on the channel layer.
_deferred: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar(
    "matches_deferred_notices", default=None
)


def notice(
    match_id: Any, seq: int, tag: str | None = None, move: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    message: dict[str, Any] = {"type": "match.notice", "match": str(match_id), "seq": seq}
    if move is not None:
        # The committed log row: other processes follow the move without a read.
        message["move"] = move
    if tag:
        # Seats changed, seq did not: a new tag makes each process reload its snapshot once
        # (the process that made the change has it already).
        message["presence"] = tag
    return group_name(match_id), message


def notify(
    match_id: Any, seq: int, tag: str | None = None, move: dict[str, Any] | None = None
) -> None:
    """Tell the match's group where it stands. Lost notices are healed by resync/ping."""
    group, message = notice(match_id, seq, tag, move)
    collected = _deferred.get()
    if collected is not None:
        collected.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:
        # The channel layer is down (Redis): the move is committed; sockets catch up from the
        # database when it returns (consumers resync) or on their next frame.
        log.warning("could not broadcast a match notice: %s", type(exc).__name__)


def collecting_notices(function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a service call so that it returns (result, notices) instead of sending them."""

    def call(*args: Any, **kwargs: Any) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
        collected: list[tuple[str, dict[str, Any]]] = []
        token = _deferred.set(collected)
        try:
            return function(*args, **kwargs), collected
        finally:
            _deferred.reset(token)

    return call


# How long an act's ack (or a server move's next step) waits on the channel layer to take a
# notice. A layer that does not answer must not hold up the ack: the move is committed, the
# notice goes on in the background (the layer's own timeout ends it: config/notice_layer.py),
# and while the layer is down other processes' sockets follow the database.
NOTICE_WAIT_S = 0.25


async def send_notices(notices: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    many = getattr(layer, "group_send_many", None)
    if many is not None and len(notices) > 1:
        # A group commit's notices in one round trip (config/notice_layer.py): on Redis the
        # round trip, not the message, is the cost, about 0.2 ms of CPU each.
        starts = [functools.partial(many, notices)]
    else:
        starts = [functools.partial(layer.group_send, group, m) for group, m in notices]
    for start in starts:
        sending = asyncio.ensure_future(start())
        await asyncio.wait({sending}, timeout=NOTICE_WAIT_S)
        if sending.done():
            _sent(sending)
        else:
            _still_sending.add(sending)  # held until done (the loop keeps tasks weakly)
            sending.add_done_callback(_sent)


_still_sending: set[asyncio.Future] = set()


def _sent(sending: asyncio.Future) -> None:
    _still_sending.discard(sending)
    exc = None if sending.cancelled() else sending.exception()
    if exc is not None:
        log.warning("could not broadcast a match notice: %s", type(exc).__name__)


def after_commit(
    match: Match,
    remember: tuple[list[Seat], Any, list[Action]] | None = None,
    presence: tuple[list[Seat], snapshots.Snapshot] | None = None,
    reread: bool = False,
    quiet: bool = False,
) -> None:
    """After the commit: refresh this process's snapshot, tell the group, queue the timer.

    `remember`: a move's (seats, state, new log rows); `presence`: the seats after a
    presence change and the snapshot at this seq; neither: the process's snapshot is dropped.
    `quiet`: a line nobody needs at once (a late pass refused): the group is not told, so no
    socket sends a frame for it; it rides on the next frame each socket sends.
    """
    match_id, seq, due_at = match.id, match.seq, match.due_at
    # `reread`: seats changed, seq did not, and this process has no snapshot to keep.
    tag = secrets.token_hex(6) if presence is not None or reread else None
    move = None
    if remember is not None:
        seats, state, rows = remember
        transaction.on_commit(lambda: snapshots.remember(match, seats, state, rows))
        if len(rows) == 1 and rows[0].kind == Action.Kind.GAME:
            move = snapshots.move_notice(match, rows[0])
    elif presence is not None:
        seats, base = presence
        transaction.on_commit(lambda: snapshots.remember_presence(match, seats, tag, base))
    else:
        transaction.on_commit(lambda: snapshots.forget(match_id))
    if not quiet:
        transaction.on_commit(lambda: notify(match_id, seq, tag, move))
    if due_at is not None and conf("CELERY", False):
        transaction.on_commit(lambda: _schedule_task(match_id, seq, due_at))


def _schedule_task(match_id: Any, seq: int, due_at: datetime) -> None:
    try:
        # By name: this module does not import the tasks (they import the moves).
        current_app.send_task("matches.tasks.advance_match", (str(match_id), seq), eta=due_at)
    except Exception as exc:
        # The sweepers (in-process and Celery beat) and the in-process timers still move it.
        log.warning("could not queue a match task: %s", type(exc).__name__)


# While the layer is down: how often a socket reads its match's seq and tries to rejoin
# (docs/matches.md, "When Redis goes away").
LAYER_RETRY_S = 0.5


async def seq_now(match_id: Any) -> int:
    """The match's seq as the database has it (what a socket follows while the layer is down:
    no notice reaches it, and this process's snapshot hears of others' moves only by one)."""
    return await db_call(Match.objects.seq_of)(match_id) or 0


async def moved(match_id: Any, sent: int | None) -> bool:
    """While the layer is down: whether the database has what a socket sent `sent` lacks.
    The database may be down too: then nothing is known to have moved (next time)."""
    try:
        return sent is None or await seq_now(match_id) > sent
    except Exception:
        return False


async def rejoin(layer: Any, channel: str, match_id: Any | None) -> None:
    """Join the match's group again after an outage (Redis lost its memory too); without a
    match yet, just see whether the layer answers. Bounded: a Redis that does not answer
    must not hold up the next look at the database."""
    if match_id is not None:
        joining = layer.group_add(group_name(match_id), channel)
    else:
        joining = layer.group_discard("matches.probe", channel)
    await asyncio.wait_for(joining, LAYER_RETRY_S)


async def join(layer: Any, channel: str, match_id: Any) -> None:
    """Join the match's group at hello, bounded by the layer's own timeout. Redis down: the
    socket works from the database; its channel receive fails too, and its recovery joins
    the group once the layer is back (`rejoin`)."""
    try:
        await layer.group_add(group_name(match_id), channel)
    except Exception as exc:
        log.warning("could not join a match group: %s", type(exc).__name__)


async def leave(layer: Any, channel: str, match_id: Any) -> None:
    """Leave the match's group at close; the layer may be down: nothing to undo."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(layer.group_discard(group_name(match_id), channel), LAYER_RETRY_S)


def heard(match_id: Any, message: dict[str, Any]) -> tuple[int, str | None]:
    """A socket's `match.notice` (`notice`): its seq and presence tag; a move it carries
    brings this process's snapshot up to date first (`snapshots.catch_up`)."""
    tag = message.get("presence")
    if isinstance(message.get("move"), dict):
        snapshots.catch_up(match_id, message["move"])
    return message.get("seq", 0), tag if isinstance(tag, str) else None
