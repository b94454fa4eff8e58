"""The server's clock from ping/pong round trips (NTP-style): the Python twin of
static/js/clock-sync.js, used by scripted players and the fairness harness. Same rules:

for each pong, delay = t4 - t1 and offset = now - (t1 + t4) / 2 (t1: local send time, now:
the server's epoch ms in the pong, t4: local receipt). A window of the most recent samples
is kept and the offsets of its few lowest-delay ones are averaged; the estimate is within
`bound` (their mean delay / 2) of the truth whatever the legs' asymmetry. Jitter only adds
delay, so the fastest samples are those whose legs were nearly equal; a constant
asymmetry, though, shifts the estimate by half the legs' difference and no round trip
can reveal it. The local clock is injected (`now`, ms).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

WINDOW = 32
BEST = 3
MAX_DELAY_MS = 10_000
MAX_HELD_MS = 60_000


def wall_ms() -> float:
    """Epoch ms that never jumps back: the wall clock read once, then a monotonic one."""
    return _EPOCH + (time.perf_counter() - _PERF) * 1000


_EPOCH, _PERF = time.time() * 1000, time.perf_counter()


@dataclass(frozen=True)
class Sample:
    t1: float
    t4: float
    delay: float
    offset: float


@dataclass(frozen=True)
class Estimate:
    offset: float
    bound: float
    delay: float
    samples: int


def estimate(samples: list[Sample] | deque[Sample], best: int = BEST) -> Estimate | None:
    """The mean offset of the `best` lowest-delay samples, with its error bound."""
    if not samples:
        return None
    fastest = sorted(samples, key=lambda s: s.delay)[:best]
    n = len(fastest)
    return Estimate(
        offset=sum(s.offset for s in fastest) / n,
        bound=sum(s.delay for s in fastest) / n / 2,
        delay=fastest[0].delay,
        samples=len(samples),
    )


class ClockSync:
    def __init__(
        self, now: Callable[[], float] = wall_ms, window: int = WINDOW, best: int = BEST
    ) -> None:
        self.now = now
        self.best = best
        self.samples: deque[Sample] = deque(maxlen=window)
        self.last_pong: tuple[float, float] | None = None  # (server now, local t4)
        self.estimate: Estimate | None = None

    def add(self, t1: float, server_now: float, t4: float | None = None) -> Sample | None:
        """Record one pong; None when it is unusable (negative or absurd round trip)."""
        t4 = self.now() if t4 is None else t4
        self.last_pong = (server_now, t4)
        delay = t4 - t1
        if delay < 0 or delay > MAX_DELAY_MS:
            return None
        sample = Sample(t1, t4, delay, server_now - (t1 + t4) / 2)
        self.samples.append(sample)
        self.estimate = estimate(self.samples, self.best)
        return sample

    @property
    def ready(self) -> bool:
        return self.estimate is not None

    @property
    def offset(self) -> float:
        return self.estimate.offset if self.estimate else 0.0

    @property
    def bound(self) -> float:
        return self.estimate.bound if self.estimate else float("inf")

    @property
    def delay(self) -> float | None:
        return self.estimate.delay if self.estimate else None

    def server_now(self, local: float | None = None) -> float:
        return (self.now() if local is None else local) + self.offset

    def ping_fields(self, t1: float | None = None) -> dict[str, int]:
        """`echo` and `held` for a ping sent at local time t1 (protocol v1)."""
        if self.last_pong is None:
            return {}
        t1 = self.now() if t1 is None else t1
        echo, t4 = self.last_pong
        held = round(t1 - t4)
        if not 0 <= held <= MAX_HELD_MS:
            return {}
        return {"echo": int(echo), "held": held}
