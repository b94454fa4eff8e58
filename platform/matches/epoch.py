"""Server epoch milliseconds, the one spelling of a moment the match layer stores (turn
clocks, a timed game's state start `at`) and sends."""

from __future__ import annotations

from datetime import UTC, datetime


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)
