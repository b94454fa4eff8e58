"""Cooldowns before rated play for abandoning rated games. Pure: the rule reads a player's
abandonments (moments) and the time now, both passed in, and keeps nothing itself.

The shape is lichess's play bans: the first cooldown is short, each one earned while earlier
ones are still recent is longer, and none is longer than three days.

- One abandonment alone can be an accident (a lost connection, a flat battery): it earns
  nothing by itself.
- An abandonment with another one in the REPEAT_WINDOW before it earns a cooldown from that
  moment: FIRST × GROWTH^n, n the cooldowns earned in the MEMORY before it, at most CAP.
  So 10 min, 30 min, 1 h 30, 4 h 30, 13 h 30, 40 h 30, then 3 days.

The player's history is the truth: a cooldown is computed, never stored, so recording the
same abandonment twice (a re-delivered signal) or late (a catch-up sweep) is harmless.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

FIRST = timedelta(minutes=10)
GROWTH = 3
CAP = timedelta(days=3)
REPEAT_WINDOW = timedelta(days=7)  # two abandonments this close make a pattern
MEMORY = timedelta(days=30)  # earlier cooldowns count toward the next one this long


@dataclass(frozen=True)
class Cooldown:
    start: datetime
    end: datetime
    recent_abandonments: int  # in the REPEAT_WINDOW up to `start`, this one included

    def left(self, now: datetime) -> timedelta:
        return max(timedelta(0), self.end - now)


def cooldowns(abandonments: Iterable[datetime]) -> list[Cooldown]:
    """Every cooldown the history earns, in order."""
    moments = sorted(set(abandonments))
    earned: list[Cooldown] = []
    for i, moment in enumerate(moments):
        recent = [m for m in moments[: i + 1] if moment - m < REPEAT_WINDOW]
        if len(recent) < 2:
            continue
        before = sum(1 for c in earned if moment - c.start < MEMORY)
        length = min(CAP, FIRST * GROWTH**before)
        earned.append(Cooldown(moment, moment + length, len(recent)))
    return earned


def active(abandonments: Iterable[datetime], now: datetime) -> Cooldown | None:
    """The cooldown in force at `now` (the one ending last), or None."""
    running = [c for c in cooldowns(a for a in abandonments if a <= now) if c.end > now]
    return max(running, key=lambda c: c.end, default=None)
