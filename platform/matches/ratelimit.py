"""A token bucket: the consumer's per-connection limit, and polite test clients (no Django);
and the acts a socket dropped over its limit, told to the client at most once a second."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


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


class DroppedActs:
    """The action ids of acts dropped over the rate limit: the client is told which
    (`tell(ids)`, the `rate_limited` error) at once, or within the second after the last
    telling; at most `keep` ids wait."""

    def __init__(
        self,
        tell: Callable[[list[str]], Awaitable[None]],
        clock: Callable[[], float] | None = None,
        keep: int = 64,
    ) -> None:
        self.tell = tell
        self.clock = clock or time.monotonic
        self.keep = keep
        self.ids: list[str] = []
        self.told_at = float("-inf")
        self.later: asyncio.TimerHandle | None = None

    async def dropped(self, action_id: str | None) -> None:
        if action_id is not None and len(self.ids) < self.keep:
            self.ids.append(action_id)
        wait = 1 - (self.clock() - self.told_at)
        if wait <= 0:
            await self._tell()
        elif self.ids and self.later is None:
            loop = asyncio.get_running_loop()
            self.later = loop.call_later(wait, lambda: asyncio.ensure_future(self._tell()))

    def cancel(self) -> None:
        if self.later is not None:
            self.later.cancel()
            self.later = None

    async def _tell(self) -> None:
        self.later = None
        self.told_at = self.clock()
        ids, self.ids = self.ids, []
        await self.tell(ids)
