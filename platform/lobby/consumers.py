"""The lobby's WebSocket (/lobby/ws/): the board for everyone, and one person's own
places. Every frame in is validated and rate-limited; refusals come back as an "error"
frame with a code and the sentence for it (docs/lobby.md, "The socket")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from django.utils import timezone, translation

from lobby import board, pools, store, texts, ticker
from lobby.store import LobbyError, Person
from matches import handshake
from matches.ratelimit import TokenBucket
from matches.socketbase import SocketBase

MAX_FRAME = 2_000  # characters: a lobby frame is a few words
LAYER_RETRY_SECONDS = 1.0  # while the channel layer is down: how often to try it again


def person_of(scope: dict[str, Any]) -> Person | None:
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Person(f"u{user.pk}", user.pk, user.get_username())
    session = scope.get("session")
    guest = session.get("lobby_guest") if session is not None else None
    return Person(guest) if isinstance(guest, str) and guest.startswith("g") else None


class LobbyConsumer(SocketBase):
    """A lobby socket. The board reaches it from this process's board (board.BOARD writes
    the same text to every socket); the channel layer brings it only its person's own
    news ("paired"), on a receive that survives the layer going away (the socket stays
    open and keeps its places; pairing is paused meanwhile, ticker.py)."""

    board_built = 0.0  # when the last board this socket was sent was built
    layer_down = False

    async def connect(self) -> None:
        self.person = await database_sync_to_async(person_of)(self.scope)
        if self.person is None:
            await self.close(code=4401)  # open /lobby/ first: it gives the browser its key
            return
        self.language = _language(self.scope)
        self.bucket = TokenBucket(rate=2, burst=10)
        self.offer_task: asyncio.Task | None = None
        self.group = _person_group(self.person.key)
        await self.accept()
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # the layer is down: joined when it is back (channel receive)
            self.layer_down = True
        ticker.ensure_running()
        # Watched first, then the board at most a second old: a change told meanwhile
        # reaches this socket either way.
        board.BOARD.watch(self)
        await self.send_board(*await board.BOARD.since(time.time() - 1.0))
        await self._send_you()

    async def disconnect(self, code: int) -> None:
        board.BOARD.unwatch(self)
        task = getattr(self, "offer_task", None)
        if task is not None:
            task.cancel()
        if getattr(self, "person", None) is None:
            return
        with contextlib.suppress(Exception):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        # The owner left: their seeks and places go with them (a match already made stays).
        if await database_sync_to_async(store.leave)(self.person.key):
            await ticker.announce_change()

    async def send_board(self, text: str, built: float) -> None:
        """A board from this process's board; never one older than the last sent."""
        if built >= self.board_built:
            self.board_built = built
            await self.send(text_data=text)

    async def channel_receive_surviving(self) -> dict[str, Any]:
        while True:
            if self.layer_down:
                await asyncio.sleep(LAYER_RETRY_SECONDS)
                try:  # Redis may have lost its memory: the membership is made again
                    await self.channel_layer.group_add(self.group, self.channel_name)
                except Exception:
                    continue
                self.layer_down = False
            try:
                return await self.channel_layer.receive(self.channel_name)
            except (asyncio.CancelledError, StopConsumer):
                raise
            except Exception:
                self.layer_down = True

    # --- frames in ---------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if not self.bucket.take():
            return await self._error("slow_down")
        if text_data is None or len(text_data) > MAX_FRAME:
            return await self._error("bad_frame")
        try:
            frame = json.loads(text_data)
        except ValueError:
            return await self._error("bad_frame")
        kind = frame.get("type") if isinstance(frame, dict) else None
        handler = {
            "join": self._join,
            "leave": self._leave,
            "take": self._take,
            "ping": self._ping,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            return await self._error("bad_frame")
        await handler(frame)

    async def _ping(self, frame: dict[str, Any]) -> None:
        await self.send(text_data='{"type":"pong"}')

    async def _join(self, frame: dict[str, Any]) -> None:
        pool = frame.get("pool")
        if pools.get(pool) is None:
            return await self._error("no_such_pool")
        try:
            await database_sync_to_async(store.join_pool)(pool, self.person)
        except LobbyError as exc:
            return await self._error(exc.code, **exc.details)
        await ticker.announce_change()
        await self._send_you()

    async def _leave(self, frame: dict[str, Any]) -> None:
        seek = frame.get("seek")  # one open seek (or seat at its table), else every place
        if seek is not None and (not isinstance(seek, int) or isinstance(seek, bool)):
            return await self._error("bad_frame")
        await database_sync_to_async(store.leave)(self.person.key, seek)
        await ticker.announce_change()
        await self._send_you()

    async def _take(self, frame: dict[str, Any]) -> None:
        seek = frame.get("seek")
        if not isinstance(seek, int) or isinstance(seek, bool):
            return await self._error("bad_frame")

        def take() -> None:
            group = store.take_seek(seek, self.person)
            if group is not None:  # None: seated at a table that is not full yet
                ticker.start_and_hand_over(group.id)

        try:
            await database_sync_to_async(take)()
        except LobbyError as exc:
            return await self._error(exc.code, **exc.details)
        await ticker.announce_change()
        await self._send_you()

    # --- frames out ----------------------------------------------------------------------

    async def _error(self, code: str, **details: Any) -> None:
        with translation.override(self.language):
            text = texts.refusal(code, details)
        frame: dict[str, Any] = {"type": "error", "code": code, "text": text}
        if "until" in details:
            frame["seconds_left"] = max(
                0, round((details["until"] - timezone.now()).total_seconds())
            )
        await self.send(text_data=json.dumps(frame, ensure_ascii=False))

    async def _send_you(self) -> None:
        places = await database_sync_to_async(store.places)(self.person.key)
        policy = store.policy()
        waiting = [
            {"pool": p.pool if p.kind == "pool" else None, "seek": store.seek_of(p),
             "seated": p.kind == "seek" and bool(p.pool), "since": p.joined_at.isoformat()}
            for p in places
        ]  # fmt: skip
        await self.send(text_data=json.dumps({"type": "you", "places": waiting}))
        if self.offer_task is not None:
            self.offer_task.cancel()
        first_pool = next((p for p in places if p.kind == "pool"), None)
        if first_pool is not None:
            waited = (timezone.now() - first_pool.joined_at).total_seconds()
            delay = max(0.0, policy.cpu_offer_after - waited)
            self.offer_task = asyncio.get_running_loop().create_task(
                self._offer_cpu(first_pool.pool, delay)
            )

    async def _offer_cpu(self, pool: str, delay: float) -> None:
        await asyncio.sleep(delay)
        still = await database_sync_to_async(store.places)(self.person.key)
        if any(p.pool == pool for p in still):
            await self.send(text_data=json.dumps({"type": "cpu_offer", "pool": pool}))

    # --- the channel layer's messages --------------------------------------------------------

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        board.BOARD.notice()  # sent to a socket's own channel (older code): the board's job

    async def lobby_paired(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "paired", "go": message["go"]}))


def _person_group(person: str) -> str:
    from lobby.handoff import person_group

    return person_group(person)


def _language(scope: dict[str, Any]) -> str:
    """The page's language (it names it in the socket's query), else the handshake's."""
    from urllib.parse import parse_qs

    from django.conf import settings

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    asked = (query.get("lang") or [""])[0]
    return asked if asked in dict(settings.LANGUAGES) else handshake.language(scope)
