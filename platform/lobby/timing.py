"""When a pool runs its wave, how long a seeker can expect to wait, and when a lone seeker
is offered a CPU. Pure: every moment is a number of seconds passed in.

lichess pairs its pools every 12-60 s, or as soon as 20-40 members wait. This site's pools
are small and split many ways (a pace, rated or casual, a seat count), so most waves see a
handful of seekers: the shortest interval (12 s) keeps a lone pair from waiting long, and
the smallest size trigger (20) runs a busy pool's wave at once, since waiting longer for a
better gap gains little when the maximum-weight matching already sees twenty ratings.
docs/lobby.md says more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class WavePolicy:
    interval: float = 12.0  # seconds between two waves of one pool
    size: int = 20  # ... or at once when this many wait
    cpu_offer_after: float = 20.0  # a seeker nobody was found for is offered a CPU


DEFAULT = WavePolicy()


def wave_due(policy: WavePolicy, now: float, last_wave: float | None, waiting: int) -> bool:
    """Whether the pool's next wave should run now."""
    if waiting < 2:
        return False
    if last_wave is None or waiting >= policy.size:
        return True
    return now - last_wave >= policy.interval


def next_wave_in(policy: WavePolicy, now: float, last_wave: float | None) -> float:
    if last_wave is None:
        return 0.0
    return max(0.0, policy.interval - (now - last_wave))


def expected_wait(
    policy: WavePolicy,
    now: float,
    last_wave: float | None,
    waiting: int,
    recent_waits: Sequence[float] = (),
) -> float | None:
    """Seconds a new seeker of this pool can expect to wait: the median of the pool's recent
    waits when it has some, else the next wave if someone is there to meet, else unknown."""
    if recent_waits:
        ordered = sorted(recent_waits)
        return ordered[len(ordered) // 2]
    if waiting >= 1:
        return next_wave_in(policy, now, last_wave) or policy.interval
    return None


def offer_cpu(policy: WavePolicy, now: float, joined: float) -> bool:
    """Nobody waits alone: after `cpu_offer_after` seconds the seeker may play a CPU."""
    return now - joined >= policy.cpu_offer_after
