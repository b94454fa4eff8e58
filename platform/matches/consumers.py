"""The one WebSocket consumer of every match: it parses (frames timed as they reach the
process, rate-limited, read by `protocol`), forwards (to a service or the writer, `owner`) and
delivers (this connection's frame from `frames`, when it is news). The protocol: docs/protocol.md;
Redis outages: docs/matches.md; Channels' code replaced (arrival stamps, the surviving channel
receive): `socketbase`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from channels.exceptions import StopConsumer
from django.db import DatabaseError, InterfaceError
from django.utils import translation

from gamekit import GameError
from matches import broadcast, errors, frames, handshake, owner, protocol, services, snapshots
from matches.broadcast import LAYER_RETRY_S
from matches.cookies import SEAT_COOKIE
from matches.dbcall import db_call
from matches.driver import driver
from matches.errors import MatchError, error_frame, log_failure
from matches.latency import LinkDelay
from matches.protocol import PROTOCOL_VERSION, BadFrame
from matches.ratelimit import DroppedActs, TokenBucket
from matches.socketbase import RECEIVED, SocketBase

log = logging.getLogger(__name__)


def clock() -> float:
    """The rate limit's clock (tests replace it to control time)."""
    return time.monotonic()


class MatchConsumer(SocketBase):
    layer_down = False  # while this socket's channel receive fails (the layer is down)

    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        self.held: list[int] = []
        self.token: str | None = None  # the seats' token (hello's, or the seat cookie's)
        # Shared device, private hands: (seat, ms) of the last "show me" (frames.Viewer).
        self.revealed: tuple[int, int] | None = None
        self.joined = self.closed = False
        self.sent = frames.Sent()  # what this connection was sent (seq, part, room)
        self.ack_in_state = False  # hello.ack_in_state: an act's ack rides on its state frame
        self.link = LinkDelay()  # this connection's round trip (ping echo/held)
        self.arrived_ms: float | None = None  # when the frame being handled came in
        self.seen: snapshots.Snapshot | None = None  # the snapshot the last frame came from
        self.lang = handshake.language(self.scope)
        translation.activate(self.lang)  # kept by this socket's task: handshake.speaking
        rate, burst = services.conf("RATE_PER_S", 20), services.conf("RATE_BURST", 40)
        self.bucket = TokenBucket(rate, burst, lambda: clock())
        tell = lambda d: self.send_json(error_frame("rate_limited", dropped=d))  # noqa: E731
        self.dropped = DroppedActs(tell, lambda: clock())  # the acts dropped, told ≤ 1/s
        await self.accept()

    async def disconnect(self, code: int) -> None:
        self.closed = True
        self.dropped.cancel()
        if self.joined:
            driver.closed(self.match_id, self.held)
            driver.unwatch(self.match_id, self)
            await broadcast.leave(self.channel_layer, self.channel_name, self.match_id)
            if self.held:
                with contextlib.suppress(MatchError, DatabaseError):
                    await self.call(services.presence, self.match_id, self.held, -1)

    # --- frames in ---------------------------------------------------------------------

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        self.arrived_ms = message.get(RECEIVED) or time.time() * 1000  # timed acts, pings
        await super().websocket_receive(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.ref = None  # the action id of the frame being handled, for its error
        with handshake.speaking(self.lang):
            try:
                if not self.bucket.take():  # dropped unread, but named: `dropped`, ≤ 1/s
                    return await self.dropped.dropped(protocol.dropped_ref(text_data))
                message = protocol.parse(text_data)
                self.ref = protocol.action_id(message)
                handler = self.HANDLERS.get(message["type"])
                if handler is None:
                    raise BadFrame("unknown_type")
                if message["type"] != "hello" and not self.joined:
                    raise BadFrame("hello_first")
                await handler(self, message)
            except (MatchError, GameError) as exc:
                # A frame refused before it was read may still name its act (BadFrame.ref).
                await self.send_refusal(exc, self.ref or getattr(exc, "ref", None))
            except (DatabaseError, InterfaceError) as exc:
                # The database is unreachable: nothing was applied; the client may retry.
                log.warning("match consumer: database unavailable (%s)", type(exc).__name__)
                await self.send_refusal(MatchError("unavailable"), self.ref)
            except Exception as exc:  # never lose the connection over one frame
                log_failure(exc)
                await self.send_json(error_frame("server_error"))

    async def on_hello(self, message: dict[str, Any]) -> None:
        if self.joined:
            raise BadFrame("bad_message")
        since, lang, token, self.ack_in_state = protocol.hello(message)
        if lang is not None:
            self.lang = lang
            translation.activate(lang)
        from_cookie = token is None
        if from_cookie:
            token = handshake.cookie(self.scope, SEAT_COOKIE)
        held = await db_call(services.authorise)(self.match_id, token)
        if token and not held and not from_cookie:
            raise MatchError("bad_token")
        self.held, self.token, self.joined, self.sent = held, token, True, frames.Sent(since)
        driver.opened(self.match_id, held)
        driver.watch(self.match_id, self)
        await broadcast.join(self.channel_layer, self.channel_name, self.match_id)
        seq = await self.call(services.presence, self.match_id, held, +1) if held else None
        await self.send_json(
            {"type": "welcome", "v": PROTOCOL_VERSION, "seats": held, "spectator": not held}
        )
        # After a presence change this process's snapshot is current: no second read.
        await self.push(force=True, min_seq=seq)

    async def on_act(self, message: dict[str, Any]) -> None:
        act = protocol.act(message)
        if not self.held:
            raise MatchError("spectator")
        action_id, link = act["action_id"], self.link.estimate
        try:
            applied = await owner.submit_act(
                self.match_id, self.held, **act, arrived_ms=self.arrived_ms, link=link
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
        self.sent.seq = protocol.seat_number(message.get("since"))
        await self.push(force=True)

    async def on_ping(self, message: dict[str, Any]) -> None:
        t = protocol.ping_echo(message.get("t", protocol.MISSING))
        sample = protocol.ping_clock(message)
        if sample is not None:
            self.link.sample(int(self.arrived_ms or time.time() * 1000), *sample)
        # The snapshot hears of others' moves by the layer: while it is down, ask the database.
        seq = None if self.layer_down else snapshots.told_seq(self.match_id, self.sent.seq)
        if seq is None:
            seq = await broadcast.seq_now(self.match_id)
        now = int(time.time() * 1000)
        self.link.ponged(now)
        await self.send_json({"type": "pong", "t": t, "seq": seq, "now": now})

    async def on_room(self, message: dict[str, Any]) -> None:
        """A room operation (start, swap, resign, leave, invite), then this socket's frame."""
        service, args = self.ROOM[message["type"]], protocol.ROOM_ARGS[message["type"]](message)
        await self.call(service, self.match_id, self.held, *args)
        if service is services.leave:  # a seat handed to the CPU is no longer this token's
            self._hold(await db_call(services.token_seats)(self.match_id, self.token))
        await self.push()

    def _hold(self, held: list[int]) -> None:
        if held != self.held:
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

    ROOM = {
        "start": services.start_with_cpu,
        "swap": services.swap_seats,
        "resign": services.resign,
        "leave": services.leave,
        "invite": services.new_invite,
    }
    HANDLERS = dict(hello=on_hello, act=on_act, resync=on_resync, ping=on_ping, reveal=on_reveal)
    HANDLERS.update(dict.fromkeys(ROOM, on_room))

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a service in the database thread, then broadcast its notices from here."""
        result, notices = await db_call(services.collecting_notices(function))(*args, **kwargs)
        await services.send_notices(notices)
        return result

    # --- frames out --------------------------------------------------------------------

    async def match_notice(self, message: dict[str, Any]) -> None:
        """The group says the match is at seq S: send this seat's own view if it is news.
        A notice may race the socket's close; whatever goes wrong, the socket carries on."""
        if self.closed:
            return
        try:
            seq, tag = broadcast.heard(self.match_id, message)
            if not snapshots.answered(self.match_id, self.seen, self.sent.seq, seq, tag):
                await self.push_quietly(min_seq=seq, tag=tag)
        except Exception as exc:
            log_failure(exc)

    async def push_release(self, seq: int) -> None:
        """A release moment of a timed game (driver): send this connection's frame if it grew."""
        if not self.closed and self.joined:
            await self.push_quietly(min_seq=seq)

    async def push_quietly(self, **kwargs: Any) -> None:
        with handshake.speaking(self.lang), contextlib.suppress(MatchError):
            await self.push(**kwargs)

    async def push(self, force=False, min_seq=None, tag=None, ack=None) -> frames.StateFrame:
        """Send what this connection has not seen (`frames.frame_for`). `ack`: an applied act's
        ack, after the frame, or on the state frame itself if the client asked at hello."""
        self.seen = None
        viewer = frames.Viewer.of(self.held, self.revealed, self.link.owd)
        frame, self.seen = await frames.frame_for(
            self.match_id, viewer, self.sent.seq, min_seq, tag, self.lang
        )
        driver.schedule(self.match_id, frame.seq, frame.match.get("due_in_ms"))
        if frame.releases:  # a timed game: send it again when more is released
            driver.release_in(self.match_id, frame.seq, frame.release_in_ms)
        if self.held:  # the frame was built for the seats this socket still holds: those
            self._hold([s["index"] for s in frame.match["seats"] if s["yours"]])
        out = self.sent.news(frame, force)
        if ack is not None and self.ack_in_state and out is frame:
            await self.send_json(frame, extra={"ack": ack})  # the state and its ack, one send
        else:
            if out is not None:
                await self.send_json(out)
            if ack is not None:
                await self.send_json({"type": "ack", **ack})
        return frame

    async def send_refusal(self, exc: Exception, ref: str | None) -> None:
        snap = snapshots.peek(self.match_id)  # which game: any snapshot of the match will do
        text = errors.message_of(exc, services.get_game(snap.match) if snap else None)
        error = error_frame(exc.code, ref, text, errors.logged_reason(exc))
        if errors.with_view(exc) and self.joined:
            viewer = frames.Viewer.of(self.held, self.revealed, self.link.owd)
            error = await db_call(frames.add_view)(error, self.match_id, viewer)
        await self.send_json(error)

    async def send_json(self, content: Any, extra: dict[str, Any] | None = None) -> None:
        if self.closed:
            return  # a notice or a timer racing the close: nothing to send to
        text = frames.encode(content, extra)  # a state frame's shared parts encoded once
        try:
            await self.send(text_data=text)
        except Exception as exc:  # the socket closed under us (the server says so its way)
            self.closed = True
            log.info("match socket closed while sending: %s", type(exc).__name__)

    # --- the channel layer going away -----------------------------------------------------

    async def channel_receive_surviving(self) -> dict[str, Any]:
        while True:
            try:
                return await self.channel_layer.receive(self.channel_name)
            except (asyncio.CancelledError, StopConsumer):
                raise
            except Exception as exc:
                await self._layer_lost(exc)

    async def _layer_lost(self, exc: Exception) -> None:
        """Follow the database until the layer answers (the client is told its table may
        lag; moves still go through), then rejoin the group and resync."""
        if not self.layer_down:
            self.layer_down = True
            log.warning("channel layer unavailable: %s", type(exc).__name__)
            await self.send_json({"type": "lag", "lagging": True})
        while True:
            await asyncio.sleep(LAYER_RETRY_S)
            # No notice can arrive meanwhile (this receive is what would read them).
            match_id = self.match_id if self.joined else None
            if match_id and not self.closed and await broadcast.moved(match_id, self.sent.seq):
                with contextlib.suppress(Exception):  # the database may be down too
                    await self.push_quietly()
            with contextlib.suppress(Exception):
                await broadcast.rejoin(self.channel_layer, self.channel_name, match_id)
                break
        self.layer_down = False
        await self.send_json({"type": "lag", "lagging": False})
        if self.joined:
            with contextlib.suppress(Exception):
                await self.push_quietly()  # fresh from the database: what the notices missed
