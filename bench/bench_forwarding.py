"""The hop a one-writer design adds (issue 40): an act forwarded over the channel layer from
the process holding the socket to the process owning the match, and the owner's answer back.

    .venv/bin/python bench/bench_forwarding.py [--redis-url redis://127.0.0.1:6379/1]
        [--concurrency 1,50,200] [--seconds 5]

Two `config.notice_layer.RedisNoticeLayer`s stand for two processes sharing one Redis (each
has its own inbox). `--concurrency` forwarders on the first send an act to the owner's channel
on the second and wait for its answer on their own channel; the owner answers each at once (no
game, no database: the hop alone). For comparison, the one-way notice a move already costs
today: a group message from the first layer to a socket's channel on the second. Prints, per
concurrency, forwarded acts per second, the round trip's p50/p99 and the CPU per act of both
"processes" together (this one process). Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(url: str, concurrency: int, seconds: float) -> dict[str, float]:
    from config.notice_layer import RedisNoticeLayer

    # The owner's one channel takes every forwarded act of the process: a capacity to match
    # (the layer's default of 100 drops acts past it).
    here = RedisNoticeLayer(hosts=[url], prefix="bench-forwarding", capacity=10_000)
    owner = RedisNoticeLayer(hosts=[url], prefix="bench-forwarding", capacity=10_000)
    await here.flush()
    owner_channel = await owner.new_channel()
    stop = time.monotonic() + seconds
    trips: list[float] = []

    async def serve() -> None:
        while True:
            act = await owner.receive(owner_channel)
            await owner.send(act["reply_to"], {"type": "match.ack", "n": act["n"]})

    async def forward() -> None:
        mine = await here.new_channel()
        n = 0
        while time.monotonic() < stop:
            started = time.perf_counter()
            await here.send(owner_channel, {"type": "match.act", "reply_to": mine, "n": n})
            answer = await here.receive(mine)
            assert answer["n"] == n
            trips.append(time.perf_counter() - started)
            n += 1

    serving = asyncio.ensure_future(serve())
    cpu = time.process_time()
    wall = time.monotonic()
    await asyncio.gather(*(forward() for _ in range(concurrency)))
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    serving.cancel()

    # Today's hop: one group message from a process to a socket of another.
    socket = await owner.new_channel()
    await owner.group_add("bench.match", socket)
    notices: list[float] = []
    for n in range(300):
        started = time.perf_counter()
        await here.group_send("bench.match", {"type": "match.notice", "seq": n})
        assert (await owner.receive(socket))["seq"] == n
        notices.append(time.perf_counter() - started)
    await here.flush()
    await here.close_pools()
    await owner.close_pools()
    return {
        "acts/s": len(trips) / wall,
        "p50 ms": 1000 * statistics.median(trips),
        "p99 ms": 1000 * percentile(trips, 99),
        "CPU µs/act": 1e6 * cpu / max(1, len(trips)),
        "notice p50 ms": 1000 * statistics.median(notices),
        "notice p99 ms": 1000 * percentile(notices, 99),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/1")
    )
    parser.add_argument("--concurrency", default="1,50,200")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; Redis {args.redis_url}")
    print(f"{'forwarders':>10} {'acts/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'CPU µs/act':>11}"
          f" {'notice p50':>11} {'notice p99':>11}")  # fmt: skip
    for concurrency in (int(c) for c in args.concurrency.split(",")):
        f = asyncio.run(run(args.redis_url, concurrency, args.seconds))
        row = f"{concurrency:>10} {f['acts/s']:>8.0f} {f['p50 ms']:>7.2f} {f['p99 ms']:>7.2f}"
        row += f" {f['CPU µs/act']:>11.0f} {f['notice p50 ms']:>11.2f}"
        print(row + f" {f['notice p99 ms']:>11.2f}")


if __name__ == "__main__":
    main()
