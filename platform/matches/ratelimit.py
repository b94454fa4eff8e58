"""A token bucket: the consumer's per-connection limit, and polite test clients (no Django)."""

from __future__ import annotations

import time


class TokenBucket:
    """Per-connection rate limit: `rate` frames a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
