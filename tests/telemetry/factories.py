from __future__ import annotations

import secrets
from datetime import datetime

from telemetry.models import TelemetryEvent


def make_events(received_at: datetime, count: int = 1, **fields) -> list[TelemetryEvent]:
    defaults = {"page_view": secrets.token_hex(16), "kind": "game_start", "game": "bozu",
                "mode": "cpu", "device": "other", "memory": "8gb+", "cores": "5-8",
                "browser": "chrome", "os": "linux"}  # fmt: skip
    return TelemetryEvent.objects.bulk_create(
        [TelemetryEvent(received_at=received_at, **{**defaults, **fields}) for _ in range(count)]
    )
