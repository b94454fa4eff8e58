"""The one WebSocket consumer every match of every game goes through.

Protocol version 1 (docs/protocol.md has the full text and examples). All frames
are JSON text objects with a "type".

Client → server
  {"type": "hello", "v": 1, "token"?: str, "since"?: int, "lang"?: str}
      Join the match as the seats the token holds (or as a spectator without one;
      the HttpOnly seat cookie set by the create/join pages is used when "token" is
      absent). "since" is the last seq the client saw; it receives what it missed.
  {"type": "act", "action": {...}, "action_id": str, "seat"?: int, "seq"?: int}
      Play an action. "action_id" (1–64 of A–Z a–z 0–9 _ . : -) makes a retry
      idempotent. "seat" is needed only when one token holds several seats that
      could act (hot-seat); "seq", if given, must be the current seq or the action
      is refused as "stale".
  {"type": "resync", "since"?: int}      Send what happened after "since".
  {"type": "ping", "t"?: any, "echo"?: int, "held"?: number}
      Heartbeat; answered by "pong" with the seq and the server's clock. "echo" (the
      "now" of the last pong received) and "held" (ms it was held) let the server measure
      this connection's round trip (latency.py).
  {"type": "start"}                      Friend room: CPUs take the empty seats, play.
  {"type": "resign", "seat"?: int}       Two players: resign.
  {"type": "leave", "seat"?: int}        Three or more: the CPU takes my seat.
  {"type": "invite"}                     A new invitation URL; the old one stops.
  {"type": "reveal", "seat": int}        Shared device: "I am this seat, show me" (after a
                                         state frame with "handoff": {"seat": int}).

Server → client
  {"type": "welcome", "v": 1, "seats": [int], "spectator": bool}
  {"type": "state", "seq": int, "view": {...} | null, "view_seat": int | null,
   "match": {room info}, "events": [{"seq", "seat", "actor", "events": [...], "texts": [str]}],
   "reset"?: true, "handoff"?: {"seat": int}, "at"?: int, "part"?: int}
      "view" is the game's view for one viewer seat, "view_seat" (the spectator view
      when it is null); "events" are the log entries after the client's last seq as
      that seat sees them; "reset" means "events" is not contiguous, redraw.
      "handoff": a shared device must be passed to that seat; no view until "reveal".
      Timed games (karuta): "at" is the server epoch ms at which the state began, "part"
      numbers the frames of one seq as the view is released (release.py).
  {"type": "room", "seq": int, "match": {room info}}   seats / presence changed.
  {"type": "ack", "action_id": str, "seq": int, "duplicate": bool}
  {"type": "pong", "t": any, "seq": int, "now": int}   "now": the server's epoch ms.
  {"type": "error", "code": str, "message": str, "ref"?: str, "reason"?: str,
   "seq"?: int, "view"?: {...}, "view_seat"?: int}
      "message" is readable (in the connection's language). For stale, illegal
      or out-of-turn actions the current "seq" and "view" come with it. "reason":
      why a refusal the log records was made (karuta's impossible touches).

Nothing is trusted: every frame is size-checked, rate-limited, parsed and validated;
a bad frame gets an error frame and the connection and match carry on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from http.cookies import SimpleCookie
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.db import DatabaseError, InterfaceError
from django.utils import translation

from gamekit import GameError
from matches import frames, protocol, release, services, snapshots
from matches.dbcall import db_call
from matches.driver import driver
from matches.errors import MatchError, message_for, message_of, with_view
from matches.latency import LinkDelay
from matches.protocol import PROTOCOL_VERSION, BadFrame
from matches.ratelimit import TokenBucket

log = logging.getLogger(__name__)

# A websocket message's private key: when it reached this process (MatchConsumer.__call__).
RECEIVED = "_received_ms"

SEAT_COOKIE = "seat_token"
# While the channel layer (Redis) is down: how often a socket tries to rejoin its group.
LAYER_RETRY_S = 0.5


def clock() -> float:
    """The rate limit's clock (tests replace it to control time)."""
    return time.monotonic()


def log_failure(exc: Exception) -> None:
    """The type and place only: a message could quote a move or a token."""
    tb = exc.__traceback__
    while tb and tb.tb_next:
        tb = tb.tb_next
    where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
    log.error("match consumer failed: %s at %s", type(exc).__name__, where)


class MatchConsumer(AsyncWebsocketConsumer):
    async def __call__(self, scope, receive, send):
        """Channels' `__call__`, with a channel-layer receive that survives the layer going
        away (Redis down): the socket stays open, frames are still answered from the
        database, and when the layer returns the socket rejoins its group and resyncs."""
        self.scope = scope
        self.channel_layer = None
        self.channel_name = None
        self.layer_down = False
        from channels.layers import get_channel_layer

        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.channel_receive = self._channel_receive
        self.base_send = send
        # Frames are timed as they reach this process, not when this consumer is free to
        # handle them: a frame may wait behind the previous one's work (a push, a database
        # call), and that wait is the server's, not the link's (stamps' `arrival`, rtt).
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def pump() -> None:
            while True:
                message = await receive()
                message[RECEIVED] = time.time() * 1000
                inbox.put_nowait(message)
                if message.get("type") == "websocket.disconnect":
                    return

        pumping = asyncio.ensure_future(pump())
        try:
            with contextlib.suppress(StopConsumer):
                await await_many_dispatch([inbox.get, self.channel_receive], self.dispatch)
        finally:
            pumping.cancel()

    async def _channel_receive(self) -> dict[str, Any]:
        while True:
            try:
                return await self.channel_layer.receive(self.channel_name)
            except (asyncio.CancelledError, StopConsumer):
                raise
            except Exception as exc:
                await self._layer_lost(exc)

    async def _layer_lost(self, exc: Exception) -> None:
        """Wait for the channel layer to come back, then rejoin the group and resync."""
        if not self.layer_down:
            self.layer_down = True
            log.warning("channel layer unavailable: %s", type(exc).__name__)
            # The client is told its table may lag (moves still go through the database).
            with contextlib.suppress(Exception):
                await self.send_json({"type": "lag", "lagging": True})
        while True:
            await asyncio.sleep(LAYER_RETRY_S)
            # No notice can arrive meanwhile (another process's, or this one's own: this
            # receive is what would read them): the table follows the database instead.
            await self._follow_database()
            try:
                if self.joined:
                    # Redis lost its memory too: the group membership must be made again.
                    await self.channel_layer.group_add(
                        services.group_name(self.match_id), self.channel_name
                    )
                else:  # not in a group yet: just see whether the layer answers
                    await self.channel_layer.group_discard("matches.probe", self.channel_name)
            except Exception:
                continue
            break
        self.layer_down = False
        with contextlib.suppress(Exception):
            await self.send_json({"type": "lag", "lagging": False})
            if self.joined:
                with translation.override(self.lang):
                    await self.push()  # fresh from the database: what the notices missed

    async def _follow_database(self) -> None:
        """While the layer is down: push what the database has that this socket lacks."""
        if not self.joined or self.closed:
            return
        with contextlib.suppress(Exception):  # the database may be down too: next time
            seq = await db_call(self._current_seq)()
            if self.sent_seq is None or seq > self.sent_seq:
                with translation.override(self.lang):
                    await self.push()

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
        self.link = LinkDelay()  # this connection's round trip (ping echo/held)
        self.arrived_ms: float | None = None  # when the frame being handled came in
        self.last_room: Any = None
        self.seen_snapshot: snapshots.Snapshot | None = None  # the last one a frame came from
        self.lang = self._language()
        self.bucket = TokenBucket(
            services.conf("RATE_PER_S", 20), services.conf("RATE_BURST", 40), lambda: clock()
        )
        self.last_limit_error = 0.0
        self.dropped: list[str] = []  # action ids dropped by the rate limit, not yet told
        self.dropped_flush: asyncio.TimerHandle | None = None
        await self.accept()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every message.

        That call hops to the database thread and closes the connection for each frame and
        each group notice, which cost more than the move itself. Every database call here
        goes through `db_call`, which looks after the connection (matches/dbcall.py).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        if self.dropped_flush is not None:
            self.dropped_flush.cancel()
        if self.joined:
            driver.closed(self.match_id, self.held)
            release.timers.unwatch(self.match_id, self)
            with contextlib.suppress(Exception):  # the layer may be down: nothing to undo
                await self.channel_layer.group_discard(
                    services.group_name(self.match_id), self.channel_name
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
        with contextlib.suppress(Exception):
            if text_data and len(text_data) <= services.conf("MAX_FRAME_BYTES", 8192):
                ref = protocol.action_id(json.loads(text_data))
                if ref is not None and len(self.dropped) < 64:
                    self.dropped.append(ref)
        wait = 1 - (clock() - self.last_limit_error)
        if wait <= 0:
            await self._tell_dropped()
        elif self.dropped and self.dropped_flush is None:  # dropped acts are told within 1 s
            loop = asyncio.get_running_loop()
            self.dropped_flush = loop.call_later(
                wait, lambda: asyncio.ensure_future(self._tell_dropped())
            )

    async def _tell_dropped(self) -> None:
        self.dropped_flush = None
        self.last_limit_error = clock()
        dropped, self.dropped = self.dropped, []
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
        if from_cookie:
            token = self._cookie(SEAT_COOKIE)
        held = await db_call(self._authorise)(token)
        if token and not held and not from_cookie:
            raise MatchError("bad_token")
        self.held = held
        self.token = token
        self.joined = True
        self.sent_seq = since
        driver.opened(self.match_id, held)
        release.timers.watch(self.match_id, self)
        try:
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
        from matches.models import Match

        if not Match.objects.filter(pk=self.match_id).exists():
            raise MatchError("not_found")
        return services.token_seats(self.match_id, token)

    async def on_act(self, message: dict[str, Any]) -> None:
        action_id = message.get("action_id")
        if not isinstance(action_id, str) or not protocol.ACTION_ID.match(action_id):
            raise BadFrame("bad_message")
        action = protocol.check_action(message.get("action"))
        seat = protocol.seat_number(message.get("seat"))
        expected = protocol.seat_number(message.get("seq"))
        if not self.held:
            raise MatchError("spectator")
        try:
            applied = await self.call(
                services.submit_action,
                self.match_id,
                self.held,
                action,
                seat=seat,
                action_id=action_id,
                expected_seq=expected,
                arrived_ms=self.arrived_ms,
                link=self.link.estimate,
            )
        except (MatchError, GameError) as exc:
            await self.send_refusal(exc, action_id)
            await self.push()
            return
        await self.push(min_seq=applied.seq)
        await self.send_json(
            {
                "type": "ack",
                "action_id": action_id,
                "seq": applied.seq,
                "duplicate": applied.duplicate,
            }
        )

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
        if snap is not None and self.sent_seq is not None and snap.match.seq <= self.sent_seq:
            seq = snap.match.seq  # nothing new in this process: no database read
        else:
            seq = await db_call(self._current_seq)()
        now = int(time.time() * 1000)
        self.link.ponged(now)
        await self.send_json({"type": "pong", "t": t, "seq": seq, "now": now})

    def _current_seq(self) -> int:
        from matches.models import Match

        return Match.objects.filter(pk=self.match_id).values_list("seq", flat=True).first() or 0

    async def on_start(self, message: dict[str, Any]) -> None:
        await self.call(services.start_with_cpu, self.match_id, self.held)
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
        if frame["view_seat"] != seat:
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

    # --- frames out --------------------------------------------------------------------

    async def match_notice(self, message: dict[str, Any]) -> None:
        """The group says the match is at seq S: send this seat's own view if it is news.
        A notice may race the socket's close; whatever goes wrong, the socket carries on."""
        if self.closed:
            return
        try:
            await self._on_notice(message)
        except Exception as exc:
            log_failure(exc)

    async def _on_notice(self, message: dict[str, Any]) -> None:
        seq = message.get("seq", 0)
        tag = message.get("presence")
        tag = tag if isinstance(tag, str) else None
        if isinstance(message.get("move"), dict):
            snapshots.catch_up(self.match_id, message["move"])
        if self.sent_seq is not None and seq <= self.sent_seq and not tag:
            return
        seen = self.seen_snapshot
        if (
            seen is not None
            and snapshots.peek(self.match_id) is seen
            and seq <= seen.match.seq
            and (tag is None or tag in seen.tags)
        ):
            return  # a burst of notices (a reconnect storm): this one was answered already
        with translation.override(self.lang), contextlib.suppress(MatchError):
            await self.push(min_seq=seq, tag=tag)

    def error_text(self, exc: Exception) -> str:
        snap = snapshots.peek(self.match_id)  # which game: any snapshot of the match will do
        return message_of(exc, services.get_game(snap.match) if snap else None)

    def viewer(self) -> frames.Viewer:
        return frames.Viewer.of(self.held, self.revealed, self.link.owd)

    async def push(
        self, force: bool = False, min_seq: int | None = None, tag: str | None = None
    ) -> dict[str, Any]:
        """Send what this connection has not seen. With `min_seq` the process's snapshot
        is used when it is at least that recent; without, the database is read."""
        frame = None
        self.seen_snapshot = None
        if min_seq is not None:  # the common case: no database, no thread hop
            # Taken before the frame is built: if the cache moves on meanwhile, the next
            # notice is answered again (never skipped on a snapshot this frame did not show).
            self.seen_snapshot = snapshots.peek(self.match_id)
            frame = frames.cached_frame(
                self.match_id, self.viewer(), self.sent_seq, min_seq, tag, lang=self.lang
            )
        if frame is None:
            self.seen_snapshot = None
            frame = await db_call(frames.build_frame)(
                self.match_id,
                self.viewer(),
                self.sent_seq,
                min_seq=min_seq,
                tag=tag,
                fresh=min_seq is None,
                lang=self.lang,
            )
        room = frame["match"]
        driver.schedule(self.match_id, frame["seq"], room.get("due_in_ms"))
        if release.NEXT in frame:  # a timed game: send it again when more is released
            release.timers.arm(self.match_id, frame["seq"], frame.pop(release.NEXT))
        if self.held:
            # The frame was built for the seats this socket still holds (a seat handed to
            # the CPU is no longer its own): act and room operations use those from now on.
            yours = [s["index"] for s in room["seats"] if s["yours"]]
            if yours != self.held:
                self._hold(yours)
        part = frame.get("part", 0)
        if force or self.sent_seq is None or frame["seq"] > self.sent_seq:
            self.sent_seq, self.sent_part = frame["seq"], part
            self.last_room = room
            await self.send_json(frame)
        elif frame["seq"] == self.sent_seq and part > self.sent_part:
            self.sent_part = part  # the same state, more of it released
            self.last_room = room
            await self.send_json(frame)
        elif room != self.last_room:
            self.last_room = room
            await self.send_json({"type": "room", "seq": frame["seq"], "match": room})
        return frame

    async def push_release(self, seq: int) -> None:
        """A release moment of a timed game: send this connection's frame if it grew."""
        if self.closed or not self.joined:
            return
        with translation.override(self.lang), contextlib.suppress(MatchError):
            await self.push(min_seq=seq)

    async def send_refusal(self, exc: Exception, ref: str | None) -> None:
        # Only a logged refusal's reason: the log shows it to everyone anyway.
        reason = getattr(exc, "reason", None) if getattr(exc, "logged", False) else None
        await self.send_error(exc.code, ref, self.error_text(exc), with_view(exc), reason)

    async def send_error(
        self,
        code: str,
        ref: str | None = None,
        message: str | None = None,
        view: bool = False,
        reason: str | None = None,
    ) -> None:
        error: dict[str, Any] = {
            "type": "error",
            "code": code,
            "message": message or message_for(code),
        }
        if ref is not None:
            error["ref"] = ref
        if isinstance(reason, str):
            error["reason"] = reason
        if code == "unavailable":
            error["retry_ms"] = 1000
        if view and self.joined:
            frame = await db_call(frames.build_frame)(
                self.match_id, self.viewer(), None, fresh=True
            )
            error.update(seq=frame["seq"], view=frame["view"], view_seat=frame["view_seat"])
            if "handoff" in frame:  # a shared device not yet handed over: still no view
                error["handoff"] = frame["handoff"]
        await self.send_json(error)

    async def send_json(self, content: dict[str, Any]) -> None:
        if self.closed:
            return  # a notice or a timer racing the close: nothing to send to
        text = json.dumps(content, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        try:
            await self.send(text_data=text)
        except Exception as exc:  # the socket closed under us (the server says so its way)
            self.closed = True
            log.info("match socket closed while sending: %s", type(exc).__name__)

    # --- helpers -----------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {
            k.decode("latin-1").lower(): v.decode("latin-1")
            for k, v in self.scope.get("headers", [])
        }

    def _cookie(self, name: str) -> str | None:
        raw = self._headers().get("cookie")
        if not raw:
            return None
        jar = SimpleCookie()
        try:
            jar.load(raw)
        except Exception:
            return None
        morsel = jar.get(name)
        return morsel.value if morsel else None

    def _language(self) -> str:
        languages = dict(settings.LANGUAGES)
        chosen = self._cookie(settings.LANGUAGE_COOKIE_NAME)
        if chosen in languages:
            return chosen
        accept = self._headers().get("accept-language", "")
        for part in accept.split(","):
            code = part.split(";")[0].strip().lower()
            for candidate in (code, code.split("-")[0], "zh-hans" if code.startswith("zh") else ""):
                if candidate in languages:
                    return candidate
        return settings.LANGUAGE_CODE
