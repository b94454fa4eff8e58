"""matches.ratelimit, in-process on an injected clock: the token bucket and the acts
dropped over it, told to the client at once and then at most once a second."""

from __future__ import annotations

import asyncio

from matches.ratelimit import DroppedActs, TokenBucket


def test_the_bucket_allows_a_burst_then_its_rate():
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.take() for _ in range(2)] == [True, False]


def test_dropped_acts_are_told_at_once_then_gathered_for_the_rest_of_the_second():
    now = [100.0]
    told: list[list[str]] = []

    async def tell(ids: list[str]) -> None:
        told.append(ids)

    async def scenario() -> None:
        dropped = DroppedActs(tell, clock=lambda: now[0], keep=3)
        await dropped.dropped("a")  # the first: told at once
        now[0] += 0.2
        for ref in ("b", None, "c", "d", "e"):  # a frame without an id still counts
            await dropped.dropped(ref)
        assert told == [["a"]] and dropped.later is not None
        now[0] += 0.8
        await asyncio.sleep(0.85)  # the loop's own timer: within the second
        assert told == [["a"], ["b", "c", "d"]]  # at most `keep` ids wait
        await dropped.dropped("f")
        now[0] += 0.1
        handle = dropped.later
        dropped.cancel()  # the socket closed: nothing more is told
        assert handle.cancelled() and dropped.later is None

    asyncio.run(scenario())
