"""What every lobby socket shows: open seeks, the pools' queues, games to watch. One frame
for everyone (nothing in it about who is looking, and no words: the page names games and
paces in its own language), built once per change per process and sent as the same text
to each socket. It carries no seat token, no invitation, no person
key, no address: handles, ratings, the settings that matter, public match ids of lobby
games only (a friend's private room never appears)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time
import weakref
from typing import Any

from channels.db import database_sync_to_async
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from lobby import pools, rating, store, timing
from lobby.models import Pairing, PoolState, Seeker

log = logging.getLogger(__name__)

SEEKS_SHOWN = 50
WATCH_SHOWN = 5


def _rating_text(value: float | None, provisional: bool) -> str | None:
    if value is None:
        return None
    return f"{round(value)}{'?' if provisional else ''}"


def _seek_line(seek: Seeker, seated: int) -> dict[str, Any]:
    return {
        "id": seek.id,
        "game": seek.game,
        **pools.describe(seek.game, seek.settings),
        "seats": seek.seats,
        "seated": seated,  # people at its table so far, the seeker included
        "rated": seek.rated,
        "handle": seek.handle or None,  # None: a guest
        "rating": _rating_text(seek.rating, seek.provisional) if seek.user_id else None,
    }


def _pool_lines(now: float) -> dict[str, Any]:
    counts = dict(
        Seeker.objects.filter(kind=Seeker.Kind.POOL, status=Seeker.Status.WAITING)
        .values_list("pool")
        .annotate(n=Count("id"))
    )
    states = {s.pool: s for s in PoolState.objects.all()}
    policy = store.policy()
    lines = {}
    for key in pools.all_pools():
        state = states.get(key)
        last = state.last_wave_at.timestamp() if state and state.last_wave_at else None
        waiting = counts.get(key, 0)
        expected = timing.expected_wait(
            policy, now, last, waiting, state.recent_waits if state else ()
        )
        lines[key] = {
            "waiting": waiting,
            "expected": None if expected is None else round(expected),
        }
    return lines


def _watch_lines() -> list[dict[str, Any]]:
    from matches.models import Match, Seat

    ids = list(
        Pairing.objects.exclude(match_id=None)
        .order_by("-created_at")
        .values_list("match_id", flat=True)[:200]
    )
    playing = list(Match.objects.filter(id__in=ids, status=Match.Status.PLAYING))
    seats = Seat.objects.filter(match__in=playing).select_related("user").order_by("index")
    by_match: dict[Any, list] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    lines = []
    for match in playing:
        key = rating.rating_key(match.game, match.mode, match.settings)
        people = [s.user for s in by_match.get(match.id, []) if s.user_id]
        ratings = rating.current_many([u.pk for u in people], key) if key and people else {}
        values = [ratings[u.pk].rating for u in people if u.pk in ratings]
        lines.append(
            {
                "game": match.game,
                "rated": match.rated,
                "players": [
                    {
                        "handle": u.get_username(),
                        "rating": _rating_text(ratings[u.pk].rating, ratings[u.pk].provisional)
                        if u.pk in ratings
                        else None,
                    }
                    for u in people
                ],
                "strength": sum(values) / len(values) if values else 0,
                "url": reverse("matches:play", args=[match.id]),
            }
        )
    lines.sort(key=lambda line: -line["strength"])
    for line in lines:
        line.pop("strength")
    return lines[:WATCH_SHOWN]


def build() -> dict[str, Any]:
    seeks = list(
        Seeker.objects.filter(kind=Seeker.Kind.SEEK, status=Seeker.Status.WAITING, pool="")
        .exclude(flagged=True)  # a flagged account's seek is seen by nobody (quietly)
        .order_by("-joined_at")[:SEEKS_SHOWN]
    )
    tables = [store.taker_pool(s.id) for s in seeks if s.seats > 2]
    takers = dict(
        Seeker.objects.filter(pool__in=tables, status=Seeker.Status.WAITING)
        .values_list("pool")
        .annotate(n=Count("id"))
    ) if tables else {}  # fmt: skip
    return {
        "type": "board",
        "at": timezone.now().isoformat(),
        "seeks": [_seek_line(s, 1 + takers.get(store.taker_pool(s.id), 0)) for s in seeks],
        "pools": _pool_lines(time.time()),
        "watch": _watch_lines(),
    }


class Board:
    """This process's copy of the board and its one fan-out to this process's sockets.

    A change reaches a process as one channel-layer message to one listener (not one per
    socket); the board is built once, encoded once, and the same text is written to every
    lobby socket of the process, straight from here. Changes that arrive while a fan-out is
    under way are coalesced into the next one (at most one board per MIN_GAP seconds after
    the first), so a burst of arrivals costs a process a few boards, not one per arrival.
    Before, every socket received its own layer message and handled it in its own task,
    with a hop to the database thread each (Channels' dispatch closes old connections per
    message): 500 sockets a process queued 500 hops behind the ticker's database work."""

    MIN_GAP = 0.2  # seconds between two fan-outs when changes keep coming

    def __init__(self) -> None:
        self.text: str | None = None
        self.built_at = 0.0
        self.lock: asyncio.Lock | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        # This process's lobby consumers (send_board); weak, so a consumer that died without
        # its disconnect (a failed connect) does not stay here.
        self.sockets: weakref.WeakSet[Any] = weakref.WeakSet()
        self.wanted = 0.0  # the newest change told and not yet covered by a sent board
        self.sent_built = 0.0  # when the last board fanned out was built
        self.fanning: asyncio.Task | None = None
        self.paused = False  # pairing paused (the shared store is unreachable)

    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # a lock belongs to one loop (tests run one per test)
            self.loop, self.lock, self.text = loop, asyncio.Lock(), None
            self.sockets, self.wanted, self.sent_built = weakref.WeakSet(), 0.0, 0.0
            self.fanning = None

    async def since(self, stamp: float) -> tuple[str, float]:
        """The board's text, built after `stamp` (seconds since the epoch), and when it
        was built."""
        self._bind()
        async with self.lock:
            if self.text is None or self.built_at < stamp:
                began = time.time()
                frame = await database_sync_to_async(build)()
                frame["paused"] = self.paused
                self.text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
                self.built_at = began
            return self.text, self.built_at

    def watch(self, socket: Any) -> None:
        self._bind()
        self.sockets.add(socket)

    def unwatch(self, socket: Any) -> None:
        self.sockets.discard(socket)

    def notice(self) -> None:
        """The board changed (told now): fan out a board built after this moment. The
        moment is this process's own clock, not the sender's: the change was committed
        before its notice was sent, so any board begun after the notice arrived shows it."""
        self._bind()
        self.wanted = max(self.wanted, time.time())
        if self.fanning is None or self.fanning.done():
            # A context of its own: a notice told from inside async_to_sync (a view) must not
            # hand the fan-out that call's thread, which is gone once the view returns.
            self.fanning = asyncio.get_running_loop().create_task(
                self._fan_out(), context=contextvars.Context()
            )

    def set_paused(self, paused: bool) -> None:
        """Pairing paused or resumed: every socket here is told with a fresh board."""
        if paused != self.paused:
            self.paused = paused
            self.notice()

    async def _fan_out(self) -> None:
        while self.wanted > self.sent_built:
            began = time.monotonic()
            try:
                text, built = await self.since(self.wanted)
            except Exception as exc:  # the database is away: the next change tries again
                log.warning("lobby board not built: %s", type(exc).__name__)
                self.wanted = 0.0
                return
            for socket in list(self.sockets):
                with contextlib.suppress(Exception):  # a socket closing meanwhile
                    await socket.send_board(text, built)
            self.sent_built = built
            if self.wanted > self.sent_built:
                await asyncio.sleep(max(0.0, self.MIN_GAP - (time.monotonic() - began)))


BOARD = Board()
