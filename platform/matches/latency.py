"""Each connection's round trip, measured by the server from its own clock (protocol v1
`ping.echo`/`ping.held`, docs/protocol.md "One clock"). Pure: the consumer passes times in.

The client echoes the `now` of the last `pong` it received and how long it held it before
this ping. So `now − echo − held` is one round trip measured on the server's clock, whatever
the client's clock says. The lowest of the recent samples is the estimate (queueing only
ever adds delay); the one-way delay (owd) is half of it, the same both ways. The jitter is
how much slower than that lowest a round trip of this link commonly is (`jitter`): the judge
allows a touch that much more time to arrive (games/karuta/judge.py).
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

SAMPLES = 8  # recent round trips kept
PONGS = 16  # recent pong times an echo may name
MAX_RTT_MS = 10_000  # beyond this (or below 0) a sample is absurd: ignored


class Link(NamedTuple):
    """A connection's estimates, as a timed game's action is stamped with them (ms, None:
    unknown): its one-way delay and the spread of its round trips."""

    owd: int | None = None
    jitter: int | None = None


class LinkDelay:
    def __init__(self) -> None:
        self._pongs: deque[int] = deque(maxlen=PONGS)
        self._rtts: deque[int] = deque(maxlen=SAMPLES)

    def ponged(self, now_ms: int) -> None:
        """A pong carrying `now_ms` was sent on this connection."""
        self._pongs.append(now_ms)

    def sample(self, now_ms: int, echo: int, held: float) -> int | None:
        """A ping echoing `echo` after holding it `held` ms: its round trip, if plausible.
        An echo this connection was not sent (an old page, a forged one) is ignored."""
        if echo not in self._pongs:
            return None
        rtt = now_ms - echo - held
        if not 0 <= rtt <= MAX_RTT_MS:
            return None
        self._rtts.append(round(rtt))
        return round(rtt)

    @property
    def rtt(self) -> int | None:
        return min(self._rtts) if self._rtts else None

    @property
    def jitter(self) -> int | None:
        """The spread of the recent round trips in ms: the second highest sample minus the
        lowest (None before the first sample). Not the highest: one stall (a busy event loop,
        a pause) would widen the judge's window for the next 8 pings; a jittery link shows
        its jitter in more than one sample. It measures what makes an honest touch arrive
        late for its claim: its extra delay on the way up (at most the whole spread) and its
        clock's error (a clock set NTP-style is off by half its sample's asymmetry)."""
        if not self._rtts:
            return None
        ordered = sorted(self._rtts)
        return ordered[-2 if len(ordered) > 2 else -1] - ordered[0]

    @property
    def owd(self) -> int | None:
        """The one-way delay estimate in ms (None before the first sample)."""
        rtt = self.rtt
        return None if rtt is None else round(rtt / 2)

    @property
    def estimate(self) -> Link:
        return Link(self.owd, self.jitter)
