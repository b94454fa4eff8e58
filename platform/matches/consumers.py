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
  {"type": "ping", "t"?: any}            Heartbeat; answered by "pong" with the seq.
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
   "reset"?: true, "handoff"?: {"seat": int}}
      "view" is the game's view for one viewer seat, "view_seat" (the spectator view
      when it is null); "events" are the log entries after the client's last seq as
      that seat sees them; "reset" means "events" is not contiguous, redraw.
      "handoff": a shared device must be passed to that seat; no view until "reveal".
  {"type": "room", "seq": int, "match": {room info}}   seats / presence changed.
  {"type": "ack", "action_id": str, "seq": int, "duplicate": bool}
  {"type": "pong", "t": any, "seq": int}
  {"type": "error", "code": str, "message": str, "ref"?: str,
   "seq"?: int, "view"?: {...}, "view_seat"?: int}
      "message" is readable (in the connection's language). For stale, illegal
      or out-of-turn actions the current "seq" and "view" come with it.

Nothing is trusted: every frame is size-checked, rate-limited, parsed and validated;
a bad frame gets an error frame and the connection and match carry on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from http.cookies import SimpleCookie
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from gamekit import GameError
from matches import frames, services
from matches.dbcall import db_call
from matches.driver import driver
from matches.errors import MatchError, message_for, message_of
from matches.ratelimit import TokenBucket

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
SEAT_COOKIE = "seat_token"
ACTION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
# Errors that come with the current view so the client can redraw at once.
WITH_VIEW = {
    "stale",
    "not_your_turn",
    "illegal_action",
    "invalid_action",
    "game_error",
    "game_over",
    "finished",
    "not_started",
}


class BadFrame(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def _reject_constant(name: str) -> Any:
    raise BadFrame("bad_json")  # NaN / Infinity are not JSON


def _int(value: Any, optional: bool = True) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise BadFrame("bad_message")
    return value


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        self.held: list[int] = []
        self.token: str | None = None
        # Shared device, private hands: (seat, ms) of the last "show me" (frames.Viewer).
        self.revealed: tuple[int, int] | None = None
        self.joined = False
        self.sent_seq: int | None = None
        self.last_room: Any = None
        self.seen_snapshot: frames.Snapshot | None = None  # the last one a frame came from
        self.lang = self._language()
        self.bucket = TokenBucket(services.conf("RATE_PER_S", 20), services.conf("RATE_BURST", 40))
        self.last_limit_error = 0.0
        self.last_heartbeat = 0.0
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
        if self.joined:
            await self.channel_layer.group_discard(
                services.group_name(self.match_id), self.channel_name
            )
            if self.held:
                with contextlib.suppress(MatchError):
                    await self.call(services.presence, self.match_id, self.held, -1)

    # --- frames in ---------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.ref = None  # the action id of the frame being handled, for its error
        with translation.override(self.lang):
            try:
                await self._receive(text_data, bytes_data)
            except BadFrame as exc:
                await self.send_error(exc.code, ref=self.ref)
            except (MatchError, GameError) as exc:
                await self.send_error(
                    exc.code, self.ref, self.error_text(exc), view=isinstance(exc, GameError)
                )
            except Exception as exc:  # never lose the connection over one frame
                tb = exc.__traceback__
                while tb and tb.tb_next:
                    tb = tb.tb_next
                where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
                # The type and place only: a message could quote a move or a token.
                log.error("match consumer failed: %s at %s", type(exc).__name__, where)
                await self.send_error("server_error")

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if not self.bucket.take():
            now = time.monotonic()
            if now - self.last_limit_error >= 1:  # one notice a second, not one per frame
                self.last_limit_error = now
                raise BadFrame("rate_limited")
            return
        if text_data is None:
            raise BadFrame("binary_not_supported")
        limit = services.conf("MAX_FRAME_BYTES", 8192)
        if len(text_data) > limit or len(text_data.encode()) > limit:
            raise BadFrame("frame_too_large")
        try:
            message = json.loads(text_data, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            raise BadFrame("bad_json") from None
        if not isinstance(message, dict):
            raise BadFrame("bad_message")
        ref = message.get("action_id")
        if isinstance(ref, str) and ACTION_ID.match(ref):
            self.ref = ref
        kind = message.get("type")
        if not isinstance(kind, str):
            raise BadFrame("bad_message")
        handler = self.HANDLERS.get(kind)
        if handler is None:
            raise BadFrame("unknown_type")
        if kind != "hello" and not self.joined:
            raise BadFrame("hello_first")
        await handler(self, message)

    async def on_hello(self, message: dict[str, Any]) -> None:
        if self.joined:
            raise BadFrame("bad_message")
        version = message.get("v", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            raise BadFrame("unsupported_version")
        since = _int(message.get("since"))
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
        await self.channel_layer.group_add(services.group_name(self.match_id), self.channel_name)
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
        action = message.get("action")
        action_id = message.get("action_id")
        if not isinstance(action, dict):
            raise BadFrame("bad_message")
        if not isinstance(action_id, str) or not ACTION_ID.match(action_id):
            raise BadFrame("bad_message")
        seat = _int(message.get("seat"))
        expected = _int(message.get("seq"))
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
            )
        except (MatchError, GameError) as exc:
            await self.send_error(
                exc.code, action_id, self.error_text(exc), view=isinstance(exc, GameError)
            )
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
        since = _int(message.get("since"))
        self.sent_seq = since
        await self.push(force=True)

    async def on_ping(self, message: dict[str, Any]) -> None:
        t = message.get("t")
        if t is not None and not isinstance(t, (int, float, str)):
            raise BadFrame("bad_message")
        seq = await db_call(self._heartbeat)()
        await self.send_json({"type": "pong", "t": t, "seq": seq})

    def _heartbeat(self) -> int:
        from matches.models import Match

        now = time.monotonic()
        if self.held and now - self.last_heartbeat > 5:
            self.last_heartbeat = now
            services.heartbeat(self.match_id, self.held)
        return Match.objects.filter(pk=self.match_id).values_list("seq", flat=True).first() or 0

    async def on_start(self, message: dict[str, Any]) -> None:
        await self.call(services.start_with_cpu, self.match_id, self.held)
        await self.push()

    async def on_resign(self, message: dict[str, Any]) -> None:
        seat = _int(message.get("seat"))
        await self.call(services.resign, self.match_id, self.held, seat)
        await self.push()

    async def on_leave(self, message: dict[str, Any]) -> None:
        seat = _int(message.get("seat"))
        await self.call(services.leave, self.match_id, self.held, seat)
        # A seat handed to the CPU is no longer this token's; a player who is out keeps it.
        self.held = await db_call(services.token_seats)(self.match_id, self.token)
        await self.push()

    async def on_reveal(self, message: dict[str, Any]) -> None:
        seat = _int(message.get("seat"), optional=False)
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
        """The group says the match is at seq S: send this seat's own view if it is news."""
        seq = message.get("seq", 0)
        tag = message.get("presence")
        tag = tag if isinstance(tag, str) else None
        if isinstance(message.get("move"), dict):
            frames.catch_up(self.match_id, message["move"])
        if self.sent_seq is not None and seq <= self.sent_seq and not tag:
            return
        seen = self.seen_snapshot
        if (
            seen is not None
            and frames.peek(self.match_id) is seen
            and seq <= seen.match.seq
            and (tag is None or tag in seen.tags)
        ):
            return  # a burst of notices (a reconnect storm): this one was answered already
        with translation.override(self.lang), contextlib.suppress(MatchError):
            await self.push(min_seq=seq, tag=tag)

    def error_text(self, exc: Exception) -> str:
        snap = frames.peek(self.match_id)  # which game: any snapshot of the match will do
        return message_of(exc, services.get_game(snap.match) if snap else None)

    def viewer(self) -> frames.Viewer:
        return frames.Viewer.of(self.held, self.revealed)

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
            self.seen_snapshot = frames.peek(self.match_id)
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
        if force or self.sent_seq is None or frame["seq"] > self.sent_seq:
            self.sent_seq = frame["seq"]
            self.last_room = room
            await self.send_json(frame)
        elif room != self.last_room:
            self.last_room = room
            await self.send_json({"type": "room", "seq": frame["seq"], "match": room})
        return frame

    async def send_error(
        self, code: str, ref: str | None = None, message: str | None = None, view: bool = False
    ) -> None:
        error: dict[str, Any] = {
            "type": "error",
            "code": code,
            "message": message or message_for(code),
        }
        if ref is not None:
            error["ref"] = ref
        if (view or code in WITH_VIEW) and self.joined:
            frame = await db_call(frames.build_frame)(
                self.match_id, self.viewer(), None, fresh=True
            )
            error.update(seq=frame["seq"], view=frame["view"], view_seat=frame["view_seat"])
            if "handoff" in frame:  # a shared device not yet handed over: still no view
                error["handoff"] = frame["handoff"]
        await self.send_json(error)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, ensure_ascii=False, separators=(",", ":")))

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
