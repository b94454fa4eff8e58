"""The one WebSocket consumer every match of every game goes through: frames in (timed as
they reach the process, rate-limited, parsed by `protocol`), one handler per frame type, each
calling a service on the database thread. The protocol itself is described only in
docs/protocol.md. Frames out are `outgoing.FramesOut`; the channel layer's outages
`outage.LayerRecovery`; the handshake's cookies and language `handshake`; where Channels'
own consumer code is replaced (arrival stamps, the surviving channel receive) `socketbase`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, InterfaceError
from django.utils import translation

from gamekit import GameError
from matches import handshake, owner, protocol, services, snapshots
from matches.cookies import SEAT_COOKIE
from matches.dbcall import db_call
from matches.driver import driver
from matches.errors import MatchError, message_for
from matches.latency import LinkDelay
from matches.outage import LAYER_RETRY_S, LayerRecovery
from matches.outgoing import FramesOut, log_failure
from matches.protocol import PROTOCOL_VERSION, BadFrame
from matches.ratelimit import DroppedActs, TokenBucket
from matches.socketbase import RECEIVED, SocketBase

log = logging.getLogger(__name__)


def clock() -> float:
    """The rate limit's clock (tests replace it to control time)."""
    return time.monotonic()


class MatchConsumer(LayerRecovery, FramesOut, SocketBase):
    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        self.held: list[int] = []
        self.token: str | None = None
        # Shared device, private hands: (seat, ms) of the last "show me" (frames.Viewer).
        self.revealed: tuple[int, int] | None = None
        self.joined = False
        self.closed = False
        self.sent_seq: int | None = None
        self.sent_part = 0  # timed games: the last `part` sent at `sent_seq`
        self.ack_in_state = False  # hello.ack_in_state: an act's ack rides on its state frame
        self.link = LinkDelay()  # this connection's round trip (ping echo/held)
        self.arrived_ms: float | None = None  # when the frame being handled came in
        self.last_room: Any = None
        self.seen_snapshot: snapshots.Snapshot | None = None  # the last one a frame came from
        self.lang = handshake.language(self.scope)
        self.bucket = TokenBucket(
            services.conf("RATE_PER_S", 20), services.conf("RATE_BURST", 40), lambda: clock()
        )
        self.dropped = DroppedActs(self._tell_dropped, lambda: clock())
        await self.accept()

    async def disconnect(self, code: int) -> None:
        self.closed = True
        self.dropped.cancel()
        if self.joined:
            driver.closed(self.match_id, self.held)
            driver.unwatch(self.match_id, self)
            with contextlib.suppress(Exception):  # the layer may be down: nothing to undo
                await asyncio.wait_for(
                    self.channel_layer.group_discard(
                        services.group_name(self.match_id), self.channel_name
                    ),
                    LAYER_RETRY_S,
                )
            if self.held:
                with contextlib.suppress(MatchError, DatabaseError):
                    await self.call(services.presence, self.match_id, self.held, -1)

    # --- frames in ---------------------------------------------------------------------

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        # A timed game's actions are stamped with it, and pings measure the link with it.
        self.arrived_ms = message.get(RECEIVED) or time.time() * 1000
        await super().websocket_receive(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.ref = None  # the action id of the frame being handled, for its error
        with translation.override(self.lang):
            try:
                await self._receive(text_data, bytes_data)
            except (MatchError, GameError) as exc:
                # A frame refused before it was read may still name its act (BadFrame.ref).
                await self.send_refusal(exc, self.ref or getattr(exc, "ref", None))
            except (DatabaseError, InterfaceError) as exc:
                # The database is unreachable: nothing was applied; the client may retry.
                log.warning("match consumer: database unavailable (%s)", type(exc).__name__)
                await self.send_refusal(MatchError("unavailable"), self.ref)
            except Exception as exc:  # never lose the connection over one frame
                log_failure(exc)
                await self.send_error("server_error")

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if not self.bucket.take():
            await self._rate_limited(text_data)
            return
        message = protocol.parse(text_data)
        self.ref = protocol.action_id(message)
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            raise BadFrame("unknown_type")
        if message["type"] != "hello" and not self.joined:
            raise BadFrame("hello_first")
        await handler(self, message)

    async def _rate_limited(self, text_data: str | None) -> None:
        """A frame over the rate is dropped unread, except for its action id: the client is
        told which actions were dropped (`dropped`), at most once a second."""
        ref = None
        with contextlib.suppress(Exception):
            if text_data and len(text_data) <= services.conf("MAX_FRAME_BYTES", 8192):
                ref = protocol.action_id(json.loads(text_data))
        await self.dropped.dropped(ref)

    async def _tell_dropped(self, dropped: list[str]) -> None:
        error: dict[str, Any] = {
            "type": "error",
            "code": "rate_limited",
            "message": message_for("rate_limited"),
            "dropped": dropped,
        }
        if dropped:
            error["ref"] = dropped[0]
        await self.send_json(error)

    async def on_hello(self, message: dict[str, Any]) -> None:
        if self.joined:
            raise BadFrame("bad_message")
        protocol.version(message)
        since = protocol.seat_number(message.get("since"))
        lang = message.get("lang")
        if isinstance(lang, str) and lang in dict(settings.LANGUAGES):
            self.lang = lang
            translation.activate(lang)
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise BadFrame("bad_message")
        from_cookie = token is None
        self.ack_in_state = protocol.flag(message.get("ack_in_state", protocol.MISSING))
        if from_cookie:
            token = handshake.cookie(self.scope, SEAT_COOKIE)
        held = await db_call(self._authorise)(token)
        if token and not held and not from_cookie:
            raise MatchError("bad_token")
        self.held = held
        self.token = token
        self.joined = True
        self.sent_seq = since
        driver.opened(self.match_id, held)
        driver.watch(self.match_id, self)
        try:
            # Bounded by the layer's own timeout when Redis does not answer.
            await self.channel_layer.group_add(
                services.group_name(self.match_id), self.channel_name
            )
        except Exception as exc:
            # Redis is down: the socket works from the database. The channel receive fails
            # too, and its recovery (_layer_lost) joins the group once the layer is back.
            log.warning("could not join a match group: %s", type(exc).__name__)
        seq = None
        if held:
            seq = await self.call(services.presence, self.match_id, held, +1)
        await self.send_json(
            {"type": "welcome", "v": PROTOCOL_VERSION, "seats": held, "spectator": not held}
        )
        # After a presence change this process's snapshot is current: no second read.
        await self.push(force=True, min_seq=seq)

    def _authorise(self, token: str | None) -> list[int]:
        if not services.known(self.match_id):
            raise MatchError("not_found")
        return services.token_seats(self.match_id, token)

    async def on_act(self, message: dict[str, Any]) -> None:
        action_id = message.get("action_id")
        if not isinstance(action_id, str) or not protocol.ACTION_ID.match(action_id):
            raise BadFrame("bad_message")
        # Bounded once, by the writer (`protocol.check_action` in `moves.submit_action`).
        action = message.get("action")
        seat = protocol.seat_number(message.get("seat"))
        expected = protocol.seat_number(message.get("seq"))
        if not self.held:
            raise MatchError("spectator")
        try:
            applied = await owner.submit_act(
                self.match_id,
                self.held,
                action,
                seat=seat,
                action_id=action_id,
                expected_seq=expected,
                arrived_ms=self.arrived_ms,
                link=self.link.estimate,
            )
        except BadFrame:
            raise  # the act itself is malformed: refused like any bad frame, no view
        except (MatchError, GameError) as exc:
            await self.send_refusal(exc, action_id)
            await self.push()
            return
        ack = {"action_id": action_id, "seq": applied.seq, "duplicate": applied.duplicate}
        await self.push(min_seq=applied.seq, ack=ack)

    async def on_resync(self, message: dict[str, Any]) -> None:
        since = protocol.seat_number(message.get("since"))
        self.sent_seq = since
        await self.push(force=True)

    async def on_ping(self, message: dict[str, Any]) -> None:
        t = protocol.ping_echo(message.get("t", protocol.MISSING))
        sample = protocol.ping_clock(message)
        if sample is not None:
            self.link.sample(int(self.arrived_ms or time.time() * 1000), *sample)
        snap = None if self.layer_down else snapshots.peek(self.match_id)
        # The snapshot hears of other processes' moves through the layer: while it is down,
        # only the database knows the seq.
        seq = None
        if snap is not None and self.sent_seq is not None:
            told = snapshots.news_after(snap, self.sent_seq)
            if told <= self.sent_seq:
                seq = told  # nothing new in this process (a quiet line waits): no read
        if seq is None:
            seq = await db_call(self._current_seq)()
        now = int(time.time() * 1000)
        self.link.ponged(now)
        await self.send_json({"type": "pong", "t": t, "seq": seq, "now": now})

    async def on_start(self, message: dict[str, Any]) -> None:
        await self.call(services.start_with_cpu, self.match_id, self.held)
        await self.push()

    async def on_swap(self, message: dict[str, Any]) -> None:
        first, second = protocol.seat_pair(message.get("seats"))
        await self.call(services.swap_seats, self.match_id, self.held, first, second)
        await self.push()

    async def on_resign(self, message: dict[str, Any]) -> None:
        seat = protocol.seat_number(message.get("seat"))
        await self.call(services.resign, self.match_id, self.held, seat)
        await self.push()

    async def on_leave(self, message: dict[str, Any]) -> None:
        seat = protocol.seat_number(message.get("seat"))
        await self.call(services.leave, self.match_id, self.held, seat)
        await self.refresh_held()
        await self.push()

    async def refresh_held(self) -> None:
        """A seat handed to the CPU is no longer this token's; a player who is out keeps it."""
        held = await db_call(services.token_seats)(self.match_id, self.token)
        if held != self.held:
            self._hold(held)

    def _hold(self, held: list[int]) -> None:
        driver.closed(self.match_id, self.held)
        driver.opened(self.match_id, held)
        self.held = held

    async def on_reveal(self, message: dict[str, Any]) -> None:
        seat = protocol.seat_number(message.get("seat"), optional=False)
        if seat not in self.held:
            raise MatchError("not_your_seat")
        self.revealed = (seat, int(time.time() * 1000))
        frame = await self.push(force=True)
        if frame.view_seat != seat:
            self.revealed = None
            raise MatchError("no_handoff")

    async def on_invite(self, message: dict[str, Any]) -> None:
        await self.call(services.new_invite, self.match_id, self.held)
        await self.push()

    HANDLERS = {
        "hello": on_hello,
        "act": on_act,
        "resync": on_resync,
        "ping": on_ping,
        "start": on_start,
        "swap": on_swap,
        "resign": on_resign,
        "leave": on_leave,
        "invite": on_invite,
        "reveal": on_reveal,
    }

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a service in the database thread, then broadcast its notices from here."""
        result, notices = await db_call(services.collecting_notices(function))(*args, **kwargs)
        await services.send_notices(notices)
        return result
