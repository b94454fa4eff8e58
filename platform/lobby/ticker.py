"""Each process's lobby tasks: the wave ticker and the board listener.

The ticker, once a second, runs the waves that are due, starts what they paired, hands the
seats over, drops places whose sockets stopped answering, and tells every lobby socket
when the board changed. Every process with a lobby socket runs one; the store's locks make
them run each wave once between them (store.run_wave).

The listener is the process's one member of the board's group on the channel layer: a
change anywhere reaches each process as one message, and the process's board fans it out
to its own sockets (board.Board).

When the shared store of the hand-off (the lobby cache: Redis with REDIS_URL) does not
answer, pairing is paused: a pairing made then could not give its people their seats. The
waves wait, everyone keeps their place, and the sockets are told (the board's "paused");
once it has answered again for RESUME_AFTER_SECONDS the waves run as before. A seat handed
over while it went away is kept in this process and told again when it is back (for as
long as a ticket lives)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from datetime import timedelta

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from lobby import board, handoff, store
from lobby.models import Seeker

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
STALE = timedelta(seconds=45)  # a place whose socket has not been seen this long goes
SEEN_EVERY = 15.0  # seconds between the process's signs of life for its sockets' places
BOARD_GROUP = "lobby"
REJOIN_SECONDS = 300.0  # the listener renews its group membership (the layer expires it)
LISTEN_RETRY_SECONDS = 1.0

_task: asyncio.Task | None = None
_listener: asyncio.Task | None = None
# After the store comes back, pairing waits this long: every socket and listener tries its
# channel-layer groups again each LAYER_RETRY_SECONDS (1 s), and a seat told before its
# socket has joined again would be lost (Redis may restart empty).
RESUME_AFTER_SECONDS = 3.0
_answering_since: float | None = 0.0  # when the store last started answering (None: down)
_untold: list[tuple[float, str, str, str]] = []  # (since, person, match id, token)


def tick() -> tuple[bool, bool]:
    """One round on the database thread; returns (the board changed, pairing paused)."""
    global _answering_since
    changed = False
    now = timezone.now()
    gone = Seeker.objects.filter(status=Seeker.Status.WAITING, seen_at__lt=now - STALE).update(
        status=Seeker.Status.LEFT
    )
    changed |= gone > 0
    if not handoff.available():
        _answering_since = None
        return changed, True
    if _answering_since is None:
        _answering_since = time.monotonic()
    if time.monotonic() - _answering_since < RESUME_AFTER_SECONDS:
        return changed, True  # back: the sockets join their groups again first
    _tell_untold()
    for key in store.due_pools():
        for pairing_id in store.run_wave(key, now=now):
            changed = True
            start_and_hand_over(pairing_id)
    for pairing_id in store.unstarted_pairings():
        start_and_hand_over(pairing_id)  # the process that paired them died first
    return changed, False


def start_and_hand_over(pairing_id: int) -> None:
    started = store.start_pairing(pairing_id)
    if started is None:
        return
    for person, token in started.tokens.items():
        try:
            handoff.hand_over_one(person, started.match_id, token)
        except Exception as exc:  # the store went away after the match was made
            log.warning("lobby seat not handed over yet: %s", type(exc).__name__)
            _untold.append((time.monotonic(), person, str(started.match_id), token))


def _tell_untold() -> None:
    """Seats whose hand-off failed: told again now the store answers (a ticket's life)."""
    now = time.monotonic()
    waiting = [item for item in _untold if now - item[0] < handoff.TICKET_SECONDS]
    _untold.clear()
    for since, person, match_id, token in waiting:
        try:
            handoff.hand_over_one(person, match_id, token)
        except Exception:
            _untold.append((since, person, match_id, token))


async def announce_change() -> None:
    """Tell every process's board (each process's listener, one message each)."""
    layer = get_channel_layer()
    try:
        await layer.group_send(BOARD_GROUP, {"type": "lobby.changed", "stamp": time.time()})
    except Exception:  # the layer is down: this process's sockets at least are told
        board.BOARD.notice()


async def _run() -> None:
    rejoined = seen = time.monotonic()
    while True:
        await asyncio.sleep(TICK_SECONDS)
        if time.monotonic() - seen >= SEEN_EVERY:
            seen = time.monotonic()
            await _mark_seen()
        try:
            changed, paused = await database_sync_to_async(tick)()
            board.BOARD.set_paused(paused)
            if changed:
                await announce_change()
        except Exception as exc:  # a database or layer outage: try again next tick
            log.warning("lobby tick failed: %s", type(exc).__name__)
        _ensure_listener()
        if time.monotonic() - rejoined > REJOIN_SECONDS:
            rejoined = time.monotonic()
            await _rejoin()


_channel: str | None = None


async def _mark_seen() -> None:
    """The places of everyone with a lobby socket here stay (one UPDATE for the process:
    one per socket, every socket on its own timer, was hundreds of database calls in a
    burst, and a board's build queued behind them on the database thread)."""
    people = sorted({socket.person.key for socket in list(board.BOARD.sockets)})
    if people:
        with contextlib.suppress(Exception):  # the database is away: the next round
            await database_sync_to_async(store.seen_many)(people)


async def _rejoin() -> None:
    if _channel is not None:
        with contextlib.suppress(Exception):  # down: the listener rejoins when it is back
            await get_channel_layer().group_add(BOARD_GROUP, _channel)


async def _listen() -> None:
    """The process's one reader of board changes: each becomes one fan-out here."""
    global _channel
    layer = get_channel_layer()
    _channel = await layer.new_channel()
    while True:
        try:
            await layer.group_add(BOARD_GROUP, _channel)
            board.BOARD.notice()  # (re)joined: whatever changed meanwhile is shown
            while True:
                message = await layer.receive(_channel)
                if message.get("type") == "lobby.changed":
                    board.BOARD.notice()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the layer is unreachable: join again once it answers
            log.warning("lobby listener lost the channel layer: %s", type(exc).__name__)
            await asyncio.sleep(LISTEN_RETRY_SECONDS)


def _ensure_listener() -> None:
    global _listener
    loop = asyncio.get_running_loop()
    if _listener is None or _listener.done() or _listener.get_loop() is not loop:
        _listener = loop.create_task(_listen(), context=contextvars.Context())


def ensure_running() -> None:
    """Start this process's ticker and board listener (once per event loop)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        # The process's own tasks, in a context of their own (not the first socket's).
        _task = loop.create_task(_run(), context=contextvars.Context())
    _ensure_listener()


def stop() -> None:
    """Stop this process's tasks and forget their state (tests: one event loop each)."""
    global _task, _listener, _channel, _answering_since
    for task in (_task, _listener):
        if task is not None:
            task.cancel()
    _task = _listener = _channel = None
    _answering_since = 0.0
    _untold.clear()
    board.BOARD.paused = False
