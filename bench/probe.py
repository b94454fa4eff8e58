"""Where a server's latency tail comes from: garbage-collector pauses and event-loop stalls.

Enabled in the benchmark's server by BENCH_PROBE=1 (bench/asgi_bench.py). At exit it
writes to the server's log (var/bench/<setup>/daphne-<port>.log):
- every collection over 5 ms: generation, wall and CPU milliseconds, objects in the
  collected generations, and the wall-clock second (mod 1000) it ended;
- every event-loop stall over 10 ms (a 5 ms sleep that woke late), with its second.
bench_matches.py prints the seconds each match run's timed window spans (with
BENCH_PROBE=1), so a pause can be placed inside or outside it. Counting the objects
costs about as much as the collection itself: probe runs place pauses, they are not
the figures to quote.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import sys
import time
from collections import Counter

_started: dict[str, float] = {}
_pauses: list[tuple[int, float, float, int, float]] = []
_stalls: list[tuple[float, float]] = []
_census: dict = {}
_totals: dict[int, tuple[int, float]] = {}  # generation -> (collections, CPU s), all of them
_jobs: list[tuple[str, float, float, float]] = []


def timed_job(name: str, func):
    """`func` with its wall and thread-CPU time logged (the periodic jobs: lease renewal,
    sweep), so a stall can be set beside the job that ran then."""

    def job(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return func(*args, **kwargs)
        finally:
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
            _jobs.append((name, wall, cpu, time.time() % 1000))

    return job


def _on_gc(phase: str, info: dict) -> None:
    generation = info["generation"]
    if phase == "start":
        # Counting the generations' objects costs as much as a collection: only here.
        _started["size"] = sum(len(gc.get_objects(generation=g)) for g in range(generation + 1))
        if generation == 2 and _started["size"] > _census.get("size", 0):
            # What the largest full collection walked, by type (the live set it could not free).
            kinds = Counter(type(o).__qualname__ for o in gc.get_objects(generation=2))
            _census.clear()
            _census.update(size=_started["size"], kinds=kinds.most_common(30))
        _started["wall"], _started["cpu"] = time.perf_counter(), time.thread_time()
        return
    wall = time.perf_counter() - _started["wall"]
    _totals[generation] = _totals.get(generation, (0, 0.0))
    count, cpu_total = _totals[generation]
    _totals[generation] = (count + 1, cpu_total + time.thread_time() - _started["cpu"])
    if wall > 0.005:
        cpu = time.thread_time() - _started["cpu"]
        _pauses.append((generation, wall, cpu, int(_started["size"]), time.time() % 1000))


async def _watch_loop() -> None:
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.005)
        late = time.perf_counter() - before - 0.005
        if late > 0.010:
            _stalls.append((late, time.time() % 1000))


def _report() -> None:
    out = sys.stderr
    print(f"probe: {len(_pauses)} collections over 5 ms (gen, wall ms, cpu ms, objects, s):",
          file=out)  # fmt: skip
    for generation, wall, cpu, size, at in _pauses:
        line = f"{generation} {wall * 1000:6.1f} {cpu * 1000:6.1f} {size:7d} {at:6.1f}"
        print(f"  gc {line}", file=out)
    for generation, (count, cpu) in sorted(_totals.items()):
        print(f"probe: generation {generation}: {count} collections, {cpu * 1000:.0f} ms CPU",
              file=out)  # fmt: skip
    print(f"probe: {len(_stalls)} event-loop stalls over 10 ms (ms, s):", file=out)
    for late, at in _stalls:
        print(f"  stall {late * 1000:6.1f} {at:6.1f}", file=out)
    if _census:
        print(f"probe: the largest full collection walked {_census['size']} objects:", file=out)
        for kind, count in _census["kinds"]:
            print(f"  kind {count:7d} {kind}", file=out)
    print(f"probe: {len(_jobs)} periodic jobs (name, wall ms, cpu ms, s):", file=out)
    for name, wall, cpu, at in _jobs:
        print(f"  job {name} {wall * 1000:6.1f} {cpu * 1000:6.1f} {at:6.1f}", file=out)
    out.flush()


def install() -> None:
    """Call once at import of the ASGI module; `watch()` from inside the running loop."""
    gc.callbacks.append(_on_gc)
    atexit.register(_report)


_watching = False


def watch() -> None:
    global _watching
    if not _watching:
        _watching = True
        asyncio.get_running_loop().create_task(_watch_loop())
