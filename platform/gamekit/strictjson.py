"""Strict JSON in: the one parser for what clients send (the match socket's frames, the
telemetry intake). Pure Python, no Django.

`parse` refuses what is not JSON (syntax, the NaN/Infinity literals Python would take, and,
when asked, a key given twice): `NotJSON`. `check` refuses JSON no store or browser keeps
intact: a lone UTF-16 surrogate (PostgreSQL's JSON cannot store it, a browser's TextEncoder
mangles it), NUL, a number that overflows to infinity (1e400), nesting past a depth, and,
when asked, an integer past a bound: `Unfit`.
"""

from __future__ import annotations

import json
import math
from typing import Any


class NotJSON(ValueError):
    """The text is not JSON."""


class Unfit(ValueError):
    """JSON, but holding a value that cannot be kept as sent."""


def _no_constant(name: str) -> Any:
    raise NotJSON(name)  # NaN / Infinity are not JSON


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _value in pairs]
    if len(set(keys)) != len(keys):
        raise NotJSON("duplicate key")
    return dict(pairs)


def parse(text: str | bytes, *, unique_keys: bool = False) -> Any:
    """The JSON value of `text`, or NotJSON."""
    try:
        return json.loads(
            text,
            parse_constant=_no_constant,
            object_pairs_hook=_unique_keys if unique_keys else None,
        )
    except NotJSON:
        raise
    except (ValueError, RecursionError):
        raise NotJSON("syntax") from None


def check(value: Any, depth: int = 64, int_limit: int | None = None) -> None:
    """Walk a parsed value: strings (keys too) clean, numbers finite, nesting at most
    `depth`, integers within ±`int_limit` when given. Raises Unfit."""
    if depth < 0:
        raise Unfit("too deep")
    if isinstance(value, str):
        _check_string(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if int_limit is not None and abs(value) > int_limit:
            raise Unfit("integer too large")
    elif isinstance(value, float):
        if not math.isfinite(value) or (int_limit is not None and abs(value) > int_limit):
            raise Unfit("number")  # 1e400 parses as inf: never stored, never echoed
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_string(key)
            check(item, depth - 1, int_limit)
    elif isinstance(value, list):
        for item in value:
            check(item, depth - 1, int_limit)
    else:
        raise Unfit(type(value).__name__)  # json.loads makes nothing else


def _check_string(text: str) -> None:
    if "\x00" in text:
        raise Unfit("NUL")
    try:
        text.encode()
    except UnicodeEncodeError:  # "\ud800" escaped in the JSON: a lone surrogate
        raise Unfit("lone surrogate") from None
