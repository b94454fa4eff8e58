"""A token bucket: the consumer's per-connection limit, and polite test clients (no Django)."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Per-connection rate limit: `rate` frames a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] | None = None):
        self.rate, self.burst = rate, burst
        self.clock = clock or time.monotonic  # tests inject their own
        self.tokens = burst
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
