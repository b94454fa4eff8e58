"""The intake's strict schema: validation of a batch and its OpenAPI description, from one table.

A batch is one page view's context (device, browser, OS buckets and the random
page-view id) and a list of events. Every value is an enumeration or a bucket;
anything else, any unknown or forbidden name, any wrong type refuses the whole
batch with the list of bad fields, so nothing half-valid is stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from gamekit import Game, registry
from telemetry import vocabulary as v

MAX_EVENTS = 50
MAX_SETTINGS = 16
PAGE_VIEW_PATTERN = r"^[0-9a-f]{32}$"  # 128 random bits as lowercase hex, made in the page
_PAGE_VIEW = re.compile(PAGE_VIEW_PATTERN)


def game_slugs() -> tuple[str, ...]:
    return tuple(game.slug for game in registry.all())


def all_cpu_levels() -> tuple[str, ...]:
    return tuple(sorted({level.key for game in registry.all() for level in game.cpu_levels}))


def all_setting_values() -> tuple[str, ...]:
    values = {value for game in registry.all() for vals in game.telemetry_settings_schema().values()
              for value in vals}  # fmt: skip
    return tuple(sorted(values))


# The per-event fields and their allowed values (a tuple, or a function of the registry).
EVENT_FIELDS: dict[str, tuple[str, ...] | Callable[[], tuple[str, ...]]] = {
    "game": game_slugs,
    "mode": v.MODES,
    "cpu_level": all_cpu_levels,
    "result": v.RESULTS,
    "moves": v.MOVES,
    "duration": v.DURATIONS,
    "room_origin": v.ROOM_ORIGINS,
    "outcome": v.OUTCOMES,
    "reconnects": v.RECONNECTS,
    "render_speed": v.RENDER_SPEEDS,
    "time_to_3d": v.TIMES_TO_3D,
    "abandon": v.ABANDONS,
    "connection": v.CONNECTIONS,
    "cache": v.CACHE_LOADS,
    "load_failure": v.LOAD_FAILURES,
}
SETTINGS_FIELD = "settings"  # {key: bucket}, keys and values declared by the game

# The page-view context sent once per batch and stored on each of its events.
CONTEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "device": v.DEVICES,
    "memory": v.MEMORY,
    "cores": v.CORES,
    "browser": v.BROWSERS,
    "os": v.OSES,
}


@dataclass(frozen=True)
class Kind:
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    @property
    def fields(self) -> tuple[str, ...]:
        return self.required + self.optional


GAME_RESULT = ("cpu_level", SETTINGS_FIELD)
KINDS: dict[str, Kind] = {
    "page_load": Kind(("connection", "cache"), ("game",)),
    "load_failure": Kind(("load_failure",), ("game",)),
    "game_start": Kind(("game", "mode"), GAME_RESULT),
    "game_end": Kind(("game", "mode", "result", "duration"), (*GAME_RESULT, "moves")),
    "room_created": Kind(("game", "room_origin")),
    "room_connect": Kind(("game", "outcome")),
    "room_spectate": Kind(("game", "outcome")),
    "room_seat": Kind(("game", "outcome")),
    "room_reconnects": Kind(("game", "reconnects")),
    "view3d_start": Kind(("time_to_3d",), ("game", "render_speed")),
    "view3d_abandon": Kind(("abandon", "time_to_3d"), ("game",)),
    "view3d_failure": Kind((), ("game",)),
    "render_speed": Kind(("render_speed",), ("game",)),
    # The kimariji trainer (issue 28): a drill started or finished, its cards as a range
    # (the moves buckets) and, when finished, its length. Nothing of the answers.
    "drill_start": Kind(("moves",)),
    "drill_end": Kind(("moves", "duration")),
}
ROOM_KINDS = ("room_connect", "room_spectate", "room_seat")

KNOWN_NAMES = frozenset({"kind", SETTINGS_FIELD, *EVENT_FIELDS, *CONTEXT_FIELDS, "page_view"})

REQUIRED = _("This field is required.")
UNKNOWN = _("Unknown field.")
NEVER = _("This field must never be sent.")
NOT_HERE = _("This field is not part of this kind of event.")
NOT_TEXT = _("Expected a string.")
NOT_OBJECT = _("Expected an object.")
NOT_LIST = _("Expected a list.")
BAD_PAGE_VIEW = _("Expected 32 lowercase hexadecimal digits.")


class BatchError(ValueError):
    """The batch was refused; `errors` maps each bad field's path to its messages."""

    def __init__(self, errors: Mapping[str, list[str]]):
        super().__init__("invalid telemetry batch")
        self.errors = {path: [str(m) for m in messages] for path, messages in errors.items()}


def choices(name: str) -> tuple[str, ...]:
    allowed = EVENT_FIELDS.get(name) or CONTEXT_FIELDS[name]
    return allowed() if callable(allowed) else allowed


def one_of(allowed: tuple[str, ...]) -> str:
    return str(_("Expected one of: %(values)s.") % {"values": ", ".join(allowed) or "-"})


class _Errors(dict):
    def add(self, path: str, message: Any) -> None:
        self.setdefault(path, []).append(str(message))


def _check_names(data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str, errors: _Errors):
    for name in data:
        if name in allowed:
            continue
        path = f"{prefix}{name}"
        if name in KNOWN_NAMES:
            errors.add(path, NOT_HERE)
        elif v.is_forbidden(name):
            errors.add(path, NEVER)
        else:
            errors.add(path, UNKNOWN)


def _check_enum(value: Any, allowed: tuple[str, ...], path: str, errors: _Errors) -> bool:
    if not isinstance(value, str):
        errors.add(path, NOT_TEXT)
        return False
    if value not in allowed:
        errors.add(path, one_of(allowed))
        return False
    return True


def _validate_settings(value: Any, game: Game | None, path: str, errors: _Errors) -> dict:
    if not isinstance(value, dict):
        errors.add(path, NOT_OBJECT)
        return {}
    if len(value) > MAX_SETTINGS:
        errors.add(path, _("Too many settings."))
        return {}
    declared = game.telemetry_settings_schema() if game else {}
    clean = {}
    for key, bucket in value.items():
        key_path = f"{path}.{key}"
        if game is None:  # the game itself was refused: only names can be judged
            if v.is_forbidden(key):
                errors.add(key_path, NEVER)
        elif key not in declared:
            errors.add(key_path, NEVER if v.is_forbidden(key) else UNKNOWN)
        elif _check_enum(bucket, tuple(declared[key]), key_path, errors):
            clean[key] = bucket
    return clean


def _validate_event(event: Any, prefix: str, errors: _Errors) -> dict[str, Any]:
    if not isinstance(event, dict):
        errors.add(prefix.rstrip("."), NOT_OBJECT)
        return {}
    kind_name = event.get("kind")
    if "kind" not in event:
        errors.add(f"{prefix}kind", REQUIRED)
        return {}
    if not _check_enum(kind_name, tuple(KINDS), f"{prefix}kind", errors):
        return {}
    kind = KINDS[kind_name]
    _check_names(event, ("kind", *kind.fields), prefix, errors)
    for name in kind.required:
        if name not in event:
            errors.add(f"{prefix}{name}", REQUIRED)
    row: dict[str, Any] = {"kind": kind_name}
    for name in kind.fields:
        if name == SETTINGS_FIELD or name not in event:
            continue
        if _check_enum(event[name], choices(name), f"{prefix}{name}", errors):
            row[name] = event[name]
    game = registry.get(row["game"]) if "game" in row else None
    if game is not None:
        if "mode" in row and row["mode"] not in game.modes:
            errors.add(f"{prefix}mode", one_of(tuple(m.value for m in game.modes)))
        levels = tuple(level.key for level in game.cpu_levels)
        if "cpu_level" in row and row["cpu_level"] not in levels:
            errors.add(f"{prefix}cpu_level", one_of(levels))
    if SETTINGS_FIELD in event and SETTINGS_FIELD in kind.fields:
        row[SETTINGS_FIELD] = _validate_settings(
            event[SETTINGS_FIELD], game, f"{prefix}{SETTINGS_FIELD}", errors
        )
    return row


def validate_batch(data: Any) -> list[dict[str, Any]]:
    """The rows to store for a batch, or BatchError listing every bad field."""
    errors = _Errors()
    if not isinstance(data, dict):
        raise BatchError({"body": [NOT_OBJECT]})
    _check_names(data, ("page_view", "events", *CONTEXT_FIELDS), "", errors)
    context: dict[str, str] = {}
    for name in ("page_view", "events", *CONTEXT_FIELDS):
        if name not in data:
            errors.add(name, REQUIRED)
    page_view = data.get("page_view")
    if "page_view" in data:
        if not isinstance(page_view, str):
            errors.add("page_view", NOT_TEXT)
        elif not _PAGE_VIEW.fullmatch(page_view):
            errors.add("page_view", BAD_PAGE_VIEW)
    for name, allowed in CONTEXT_FIELDS.items():
        if name in data and _check_enum(data[name], allowed, name, errors):
            context[name] = data[name]
    events = data.get("events")
    rows = []
    if "events" in data:
        if not isinstance(events, list):
            errors.add("events", NOT_LIST)
        elif not 1 <= len(events) <= MAX_EVENTS:
            errors.add("events", _("Expected 1 to %(max)d events.") % {"max": MAX_EVENTS})
        else:
            rows = [_validate_event(e, f"events[{i}].", errors) for i, e in enumerate(events)]
    if errors:
        raise BatchError(errors)
    return [{**row, **context, "page_view": page_view} for row in rows]


# --- OpenAPI -----------------------------------------------------------------------


def _enum(allowed: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "string", "enum": list(allowed)}


def _kind_schema(name: str, kind: Kind) -> dict[str, Any]:
    properties: dict[str, Any] = {"kind": _enum((name,))}
    for field in kind.fields:
        if field == SETTINGS_FIELD:
            properties[field] = {
                "type": "object",
                "description": "The game's declared settings buckets (Game.telemetry_settings).",
                "maxProperties": MAX_SETTINGS,
                "additionalProperties": _enum(all_setting_values()),
            }
        elif choices(field):  # no enum at all (no game has CPU levels yet): not accepted
            properties[field] = _enum(choices(field))
    return {
        "type": "object",
        "title": name,
        "additionalProperties": False,
        "required": ["kind", *kind.required],
        "properties": properties,
    }


def batch_json_schema() -> dict[str, Any]:
    """The request body as an OpenAPI 3 schema, built from the same tables as the validator."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["page_view", "events", *CONTEXT_FIELDS],
        "properties": {
            "page_view": {
                "type": "string",
                "pattern": PAGE_VIEW_PATTERN,
                "description": "Made anew on each page load, kept only in page memory.",
            },
            **{name: _enum(allowed) for name, allowed in CONTEXT_FIELDS.items()},
            "events": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_EVENTS,
                "items": {"oneOf": [_kind_schema(n, k) for n, k in KINDS.items()]},
            },
        },
    }


ERROR_SCHEMA = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "type": "object",
            "description": "Each bad field's path (e.g. events[0].mode) and what is wrong.",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        }
    },
}
ACCEPTED_SCHEMA = {
    "type": "object",
    "required": ["accepted"],
    "properties": {"accepted": {"type": "integer", "minimum": 1}},
}
THROTTLED_SCHEMA = {"type": "object", "properties": {"detail": {"type": "string"}}}
