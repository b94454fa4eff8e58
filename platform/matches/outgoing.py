"""Frames out of a match socket: this connection's own frame (its viewer seat, what it has
not seen), refusals with their view, and the notices that prompt a push."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.utils import translation

from matches import frames, services, snapshots
from matches.dbcall import db_call
from matches.driver import driver
from matches.errors import MatchError, message_for, message_of, with_view

log = logging.getLogger("matches.consumers")


def log_failure(exc: Exception) -> None:
    """The type and place only: a message could quote a move or a token."""
    tb = exc.__traceback__
    while tb and tb.tb_next:
        tb = tb.tb_next
    where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
    log.error("match consumer failed: %s at %s", type(exc).__name__, where)


class FramesOut:
    """MatchConsumer's sending side."""

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
        self,
        force: bool = False,
        min_seq: int | None = None,
        tag: str | None = None,
        ack: dict[str, Any] | None = None,
    ) -> frames.StateFrame:
        """Send what this connection has not seen. With `min_seq` the process's snapshot
        is used when it is at least that recent; without, the database is read.

        `ack`: an applied act's ack, sent after the frame; on the state frame itself
        (`"ack": {…}`) when the client asked for that at hello and a state frame goes out.
        """
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
        room = frame.match
        driver.schedule(self.match_id, frame.seq, room.get("due_in_ms"))
        if frame.releases:  # a timed game: send it again when more is released
            driver.release_in(self.match_id, frame.seq, frame.release_in_ms)
        if self.held:
            # The frame was built for the seats this socket still holds (a seat handed to
            # the CPU is no longer its own): act and room operations use those from now on.
            yours = [s["index"] for s in room["seats"] if s["yours"]]
            if yours != self.held:
                self._hold(yours)
        part = frame.part or 0
        out: frames.StateFrame | frames.RoomFrame | None = None
        if force or self.sent_seq is None or frame.seq > self.sent_seq:
            self.sent_seq, self.sent_part = frame.seq, part
            out = frame
        elif frame.seq == self.sent_seq and part > self.sent_part:
            self.sent_part = part  # the same state, more of it released
            out = frame
        elif room != self.last_room:
            out = frames.RoomFrame(frame.seq, room)
        if out is not None:
            self.last_room = room
            if ack is not None and self.ack_in_state and out is frame:
                # One frame instead of two: the state, then its ack, in one send.
                await self.send_json(frame, extra={"ack": ack})
                return frame
            await self.send_json(out)
        if ack is not None:
            await self.send_json({"type": "ack", **ack})
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
            error.update(seq=frame.seq, view=frame.view, view_seat=frame.view_seat)
            if frame.handoff is not None:  # a shared device not yet handed over: still no view
                error["handoff"] = {"seat": frame.handoff}
        await self.send_json(error)

    async def send_json(
        self,
        content: frames.StateFrame | frames.RoomFrame | dict[str, Any],
        extra: dict[str, Any] | None = None,
    ) -> None:
        if self.closed:
            return  # a notice or a timer racing the close: nothing to send to
        text = frames.encode(content, extra)  # a state frame's shared parts encoded once
        try:
            await self.send(text_data=text)
        except Exception as exc:  # the socket closed under us (the server says so its way)
            self.closed = True
            log.info("match socket closed while sending: %s", type(exc).__name__)
