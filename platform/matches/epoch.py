"""Server epoch milliseconds, the one spelling of a moment the match layer stores (turn
clocks, a timed game's state start `at`) and sends."""

from __future__ import annotations

import math
from datetime import UTC, datetime


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def ms_until(when: datetime, now: datetime) -> int:
    """Whole milliseconds from `now` to `when`, rounded up (a timer armed for them never
    fires before `when`); 0 once it has passed."""
    return max(0, math.ceil((when - now).total_seconds() * 1000))
