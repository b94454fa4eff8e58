"""Typed errors of the match server. Every code is a class carrying its readable text and
whether the current view comes with it (`with_view`: the client can redraw at once).

`MatchError("stale")` builds the class registered for that code (`Stale`), so callers may
name a code or raise the class; `except MatchError` catches all of them.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _

from gamekit.messages import GAME_MESSAGES
from gamekit.registry import registry


class MatchError(Exception):
    """A refused request. Nothing changed."""

    code: ClassVar[str] = "server_error"
    text: ClassVar[Any] = _("Something went wrong on the server; the match is safe.")
    with_view: ClassVar[bool] = False
    # Retryable: nothing went wrong with the request, the server cannot take it just now.
    retry: ClassVar[bool] = False
    registry: ClassVar[dict[str, type[MatchError]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            MatchError.registry[cls.code] = cls

    def __new__(cls, code: str | None = None, detail: str = "") -> MatchError:
        if cls is MatchError and code in MatchError.registry:
            cls = MatchError.registry[code]
        return super().__new__(cls)

    def __init__(self, code: str | None = None, detail: str = ""):
        code = code or type(self).code
        super().__init__(code)
        self.code = code
        self.detail = detail  # for logs and tests, never shown to people

    @property
    def message(self) -> str:
        return message_for(self.code)


def _code(name: str, code: str, text: Any, with_view: bool = False, retry: bool = False) -> type:
    cls = type(name, (MatchError,), {"code": code, "text": text, "with_view": with_view})
    cls.retry = retry
    cls.__module__ = __name__
    return cls


# The frame itself
BadJson = _code("BadJson", "bad_json", _("The message is not valid JSON."))
BadMessage = _code(
    "BadMessage",
    "bad_message",
    _("The message is missing a field or has a field of the wrong kind."),
)
BinaryNotSupported = _code(
    "BinaryNotSupported", "binary_not_supported", _("Only text messages are accepted.")
)
FrameTooLarge = _code("FrameTooLarge", "frame_too_large", _("The message is too long."))
RateLimited = _code("RateLimited", "rate_limited", _("Too many messages: please slow down."))
UnknownType = _code("UnknownType", "unknown_type", _("Unknown message type."))
UnsupportedVersion = _code(
    "UnsupportedVersion",
    "unsupported_version",
    _("This version of the protocol is not supported: reload the page."),
)
HelloFirst = _code("HelloFirst", "hello_first", _("Say hello first."))
# Who is asking
NotFound = _code("NotFound", "not_found", _("This match does not exist."))
BadToken = _code("BadToken", "bad_token", _("This seat token is not valid for this match."))
Spectator = _code("Spectator", "spectator", _("Spectators cannot act."))
NotYourSeat = _code("NotYourSeat", "not_your_seat", _("You do not hold that seat."))
ChooseSeat = _code("ChooseSeat", "choose_seat", _("Say which of your seats acts."))
# Where the match is
Stale = _code(
    "Stale", "stale", _("The game has moved on: here is the current table."), with_view=True
)
NotStarted = _code("NotStarted", "not_started", _("The match has not started yet."), with_view=True)
Finished = _code("Finished", "finished", _("The match is over."), with_view=True)
# Rooms
RoomFull = _code("RoomFull", "room_full", _("Every seat is taken: you can watch."))
GroupFull = _code(
    "GroupFull", "group_full", _("Every seat of that side is taken: choose another, or watch.")
)
BadInvite = _code("BadInvite", "bad_invite", _("This invitation is no longer valid."))
NotOwner = _code("NotOwner", "not_owner", _("Only the player who made the room can do that."))
NotWaiting = _code("NotWaiting", "not_waiting", _("The match has already started."))
SignInToRate = _code(
    "SignInToRate", "sign_in_to_rate", _("Only a signed-in player can make a rated room.")
)
NotAllowed = _code("NotAllowed", "not_allowed", _("That is not possible in this match."))
DuplicateActionId = _code(
    "DuplicateActionId",
    "duplicate_action_id",
    _("That action id was already used for another move."),
)
NoHandoff = _code(
    "NoHandoff", "no_handoff", _("That seat is not the one this device is being passed to.")
)
Unavailable = _code(
    "Unavailable",
    "unavailable",
    _("The server cannot take that just now: try again in a moment."),
    retry=True,
)
ServerError = _code(
    "ServerError", "server_error", _("Something went wrong on the server; the match is safe.")
)

# Every code a client may receive, with its text (the system checks and tests read it).
MESSAGES = {**{code: cls.text for code, cls in MatchError.registry.items()}, **GAME_MESSAGES}


def message_for(code: str) -> str:
    return str(MESSAGES.get(code, GAME_MESSAGES["game_error"]))


def message_of(exc: Exception, game: Any = None) -> str:
    """The readable text of a refusal: a game's own error class may carry its message, or
    its game may (`Game.error_messages`, where "code.reason" names the text of one reason
    of a logged refusal, e.g. karuta's "impossible_touch.guess"); the platform knows the
    rest. Without the game (a process holding no snapshot of the match), the games that
    name the code are asked: a game's codes are its own, and the player should not get the
    generic "the game refused that action" for want of a cache."""
    code = getattr(exc, "code", "server_error")
    own = None if isinstance(exc, MatchError) else getattr(type(exc), "message", None)
    if not own and not isinstance(exc, MatchError):
        reason = getattr(exc, "reason", None)
        for candidate in [game] if game is not None else registry.all():
            texts = candidate.error_messages
            own = (isinstance(reason, str) and texts.get(f"{code}.{reason}")) or texts.get(code)
            if own:
                break
    return str(own) if own else message_for(code)


def with_view(exc: Exception) -> bool:
    """Whether the refusal comes with the current view (its class says so)."""
    return bool(getattr(type(exc), "with_view", False))


def error_frame(
    code: str,
    ref: str | None = None,
    message: str | None = None,
    reason: Any = None,
    dropped: list[str] | None = None,
) -> dict[str, Any]:
    """An `error` frame (docs/protocol.md) without its view: `frames.add_view` adds that."""
    error: dict[str, Any] = {"type": "error", "code": code, "message": message or message_for(code)}
    if dropped is not None:  # rate_limited: the acts dropped unread, the first one its ref
        error["dropped"] = dropped
        ref = dropped[0] if dropped else None
    if ref is not None:
        error["ref"] = ref
    if isinstance(reason, str):
        error["reason"] = reason
    if code == "unavailable":
        error["retry_ms"] = 1000
    return error


def logged_reason(exc: Exception) -> str | None:
    """Only a logged refusal's reason is sent: the log shows it to everyone anyway."""
    return getattr(exc, "reason", None) if getattr(exc, "logged", False) else None


def log_failure(exc: Exception) -> None:
    """The type and place only: a message could quote a move or a token."""
    tb = exc.__traceback__
    while tb and tb.tb_next:
        tb = tb.tb_next
    where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
    logging.getLogger("matches.consumers").error(
        "match consumer failed: %s at %s", type(exc).__name__, where
    )
