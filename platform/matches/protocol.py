"""Frames in: parsing and validation, so the consumer is a thin socket.

Everything a client sends is checked here before anything else sees it: the size, then the
JSON as `gamekit.strictjson` parses and checks it (the one strict parser: no NaN/Infinity,
no infinite number, no lone surrogate or NUL, a bounded depth), and the integers' range. An
action is bounded more tightly (`check_action`): it is stored in the log, broadcast
through the channel layer and replayed by every process, so it must survive all three.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings

from gamekit import strictjson
from matches.conf import conf
from matches.errors import MatchError

PROTOCOL_VERSION = 1
MISSING: Any = object()  # a field the frame does not have (unlike an explicit null)
ACTION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")

# JavaScript's safe integers: every number survives a browser's JSON.parse unchanged.
MAX_SAFE_INT = 2**53 - 1
FRAME_MAX_DEPTH = 16
ACTION_MAX_DEPTH = 6
ACTION_MAX_BYTES = 2048
ACTION_MAX_STRING = 512


class BadFrame(MatchError):
    """The frame itself is refused (its code is the error's); nothing was done. `ref`: the
    frame's action id when it could still be read, so the client knows which act failed."""

    ref: str | None = None


# An action id as written in a frame that is not JSON (a trailing comma, cut short).
RAW_ACTION_ID = re.compile(r'"action_id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')


def _refused(code: str, text: str | None = None, message: Any = None) -> BadFrame:
    """A BadFrame naming the frame's action id if it can be read from what was parsed
    (`message`) or, failing that, by parsing `text` leniently; in text that is not JSON at
    all, from the one `"action_id": "…"` it holds (none, or more than one: no name)."""
    error = BadFrame(code)
    if message is None and text is not None:
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            found = RAW_ACTION_ID.findall(text)
            error.ref = found[0] if len(found) == 1 else None
            return error
    if isinstance(message, dict):
        error.ref = action_id(message)
    return error


def parse(text: str | None) -> dict[str, Any]:
    """A client's frame as a checked dict with a string "type", or BadFrame."""
    if text is None:
        raise BadFrame("binary_not_supported")
    limit = conf("MAX_FRAME_BYTES", 8192)
    if len(text) > limit:
        raise BadFrame("frame_too_large")
    try:
        size = len(text.encode())
    except UnicodeEncodeError:  # a lone surrogate in the raw text
        raise _refused("bad_message", text) from None
    if size > limit:
        raise BadFrame("frame_too_large")
    try:
        message = strictjson.parse(text)
    except strictjson.NotJSON:
        raise _refused("bad_json", text) from None
    if not isinstance(message, dict):
        raise BadFrame("bad_message")
    try:
        strictjson.check(message, FRAME_MAX_DEPTH)
    except strictjson.Unfit:
        raise _refused("bad_message", message=message) from None
    if not isinstance(message.get("type"), str):
        raise _refused("bad_message", message=message)
    return message


def check_action(action: Any) -> dict[str, Any]:
    """The platform's bounds on every action before a game sees it: an object nested at
    most ACTION_MAX_DEPTH, at most ACTION_MAX_BYTES as JSON, strings at most
    ACTION_MAX_STRING long, numbers finite and within 53 bits. (Its "type" and fields are
    the game's to judge: `Game.clean_action`, then `apply`.)"""
    if not isinstance(action, dict):
        raise BadFrame("bad_message")
    try:
        strictjson.check(action, ACTION_MAX_DEPTH, MAX_SAFE_INT)
    except strictjson.Unfit:
        raise BadFrame("bad_message") from None
    encoded = json.dumps(action, ensure_ascii=False, separators=(",", ":"))
    if len(encoded.encode()) > ACTION_MAX_BYTES or _longest_string(action) > ACTION_MAX_STRING:
        raise BadFrame("bad_message")
    return action


def _longest_string(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return max([0, *(max(len(k), _longest_string(v)) for k, v in value.items())])
    if isinstance(value, list):
        return max([0, *(_longest_string(v) for v in value)])
    return 0


def seat_number(value: Any, optional: bool = True) -> int | None:
    """An optional non-negative int field (seat, seq, since)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise BadFrame("bad_message")
    return value


def seat_pair(value: Any) -> tuple[int, int]:
    """`swap.seats`: two different seat numbers."""
    if not isinstance(value, list) or len(value) != 2:
        raise BadFrame("bad_message")
    first, second = (seat_number(v, optional=False) for v in value)
    if first == second:
        raise BadFrame("bad_message")
    return first, second


def version(message: dict[str, Any]) -> int:
    """`hello.v`: an int (true is not 1), and one this server speaks."""
    value = message.get("v", PROTOCOL_VERSION)
    if type(value) is not int or value != PROTOCOL_VERSION:
        raise BadFrame("unsupported_version")
    return value


def flag(value: Any) -> bool:
    """An optional yes/no field: absent is no; anything but a JSON boolean (null too) is
    refused."""
    if value is MISSING:
        return False
    if not isinstance(value, bool):
        raise BadFrame("bad_message")
    return value


def action_id(message: dict[str, Any]) -> str | None:
    """The frame's action id when it is well formed (for naming it in an error)."""
    ref = message.get("action_id")
    return ref if isinstance(ref, str) and ACTION_ID.match(ref) else None


def ping_echo(value: Any) -> Any:
    """What `pong` echoes: a number (finite, 53-bit: checked by `parse`) or a short string
    (`missing` when the ping has no `t`; an explicit null is refused like any other type)."""
    if value is MISSING:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BadFrame("bad_message")
    if isinstance(value, str) and len(value) > 64:
        raise BadFrame("bad_message")
    if isinstance(value, (int, float)) and abs(value) > MAX_SAFE_INT:
        raise BadFrame("bad_message")
    return value


MAX_HELD_MS = 60_000


def ping_clock(message: dict[str, Any]) -> tuple[int, float] | None:
    """`ping.echo` (the `now` of the last pong the client received) and `ping.held` (ms it held
    that pong, 0..60000; 0 when absent), or None without an echo. Ill-typed: BadFrame."""
    echo, held = message.get("echo"), message.get("held")
    if echo is None:
        if held is not None:
            raise BadFrame("bad_message")
        return None
    if isinstance(echo, bool) or not isinstance(echo, int) or not 0 <= echo <= MAX_SAFE_INT:
        raise BadFrame("bad_message")
    if held is None:
        held = 0
    if isinstance(held, bool) or not isinstance(held, (int, float)) or not 0 <= held <= MAX_HELD_MS:
        raise BadFrame("bad_message")
    return echo, held


def dropped_ref(text: str | None) -> str | None:
    """The action id of a frame dropped unread over the rate limit (to name it), if any."""
    try:
        if text and len(text) <= conf("MAX_FRAME_BYTES", 8192):
            return action_id(json.loads(text))
    except Exception:
        pass
    return None


def hello(message: dict[str, Any]) -> tuple[int | None, str | None, str | None, bool]:
    """`hello`: (since, lang or None, token or None: the cookie's, ack_in_state)."""
    version(message)
    since = seat_number(message.get("since"))
    lang = message.get("lang")
    lang = lang if isinstance(lang, str) and lang in dict(settings.LANGUAGES) else None
    token = message.get("token")
    if token is not None and not isinstance(token, str):
        raise BadFrame("bad_message")
    return since, lang, token, flag(message.get("ack_in_state", MISSING))


def act(message: dict[str, Any]) -> dict[str, Any]:
    """`act`: the writer's arguments (`owner.submit_act`): action_id, action, seat, expected
    seq. The action itself is bounded once, by the writer (`check_action`)."""
    ref = message.get("action_id")
    if not isinstance(ref, str) or not ACTION_ID.match(ref):
        raise BadFrame("bad_message")
    seat, expected = seat_number(message.get("seat")), seat_number(message.get("seq"))
    return dict(action_id=ref, action=message.get("action"), seat=seat, expected_seq=expected)


# A room operation's arguments after (match, seats held), by frame type.
ROOM_ARGS = {
    "start": lambda message: (),
    "swap": lambda message: seat_pair(message.get("seats")),
    "resign": lambda message: (seat_number(message.get("seat")),),
    "leave": lambda message: (seat_number(message.get("seat")),),
    "invite": lambda message: (),
}
