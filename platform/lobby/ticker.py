"""Each process's wave ticker: once a second, run the waves that are due, start what they
paired, hand the seats over, drop places whose sockets stopped answering, and tell every
lobby socket when the board changed. Every process with a lobby socket runs one; the
store's locks make them run each wave once between them (store.run_wave)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from lobby import handoff, store
from lobby.models import Seeker

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
STALE = timedelta(seconds=45)  # a place whose socket has not been seen this long goes
BOARD_GROUP = "lobby"

_task: asyncio.Task | None = None


def tick() -> bool:
    """One round on the database thread; returns whether the board changed."""
    changed = False
    now = timezone.now()
    gone = Seeker.objects.filter(status=Seeker.Status.WAITING, seen_at__lt=now - STALE).update(
        status=Seeker.Status.LEFT
    )
    changed |= gone > 0
    for key in store.due_pools():
        for pairing_id in store.run_wave(key, now=now):
            changed = True
            start_and_hand_over(pairing_id)
    for pairing_id in store.unstarted_pairings():
        start_and_hand_over(pairing_id)  # the process that paired them died first
    return changed


def start_and_hand_over(pairing_id: int) -> None:
    started = store.start_pairing(pairing_id)
    if started is not None:
        handoff.hand_over(started)


async def announce_change() -> None:
    layer = get_channel_layer()
    if layer is not None:
        with contextlib.suppress(Exception):  # the layer is down: the next change tells
            await layer.group_send(BOARD_GROUP, {"type": "lobby.changed", "stamp": time.time()})


async def _run() -> None:
    while True:
        await asyncio.sleep(TICK_SECONDS)
        try:
            if await database_sync_to_async(tick)():
                await announce_change()
        except Exception as exc:  # a database or layer outage: try again next tick
            log.warning("lobby tick failed: %s", type(exc).__name__)


def ensure_running() -> None:
    """Start this process's ticker (once per event loop)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


def stop() -> None:
    global _task
    if _task is not None:
        _task.cancel()
        _task = None
