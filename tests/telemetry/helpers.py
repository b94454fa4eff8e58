"""Valid telemetry batches to start from; tests change one thing and expect a refusal."""

from __future__ import annotations

import secrets
from typing import Any

ENDPOINT = "/api/telemetry/events/"


def batch(*events: dict[str, Any], **context: Any) -> dict[str, Any]:
    body = {
        "page_view": secrets.token_hex(16),
        "device": "phone",
        "memory": "4gb",
        "cores": "5-8",
        "browser": "firefox",
        "os": "android",
        "events": list(events) or [game_start()],
    }
    body.update(context)
    return body


def game_start(**fields: Any) -> dict[str, Any]:
    return {"kind": "game_start", "game": "bozu", "mode": "cpu", "settings": {"players": "3"},
            **fields}  # fmt: skip


def game_end(**fields: Any) -> dict[str, Any]:
    return {"kind": "game_end", "game": "bozu", "mode": "cpu", "result": "win",
            "duration": "3-10m", "moves": "30-99", **fields}  # fmt: skip
