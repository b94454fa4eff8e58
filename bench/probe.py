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

_started: dict[str, float] = {}
_pauses: list[tuple[int, float, float, int, float]] = []
_stalls: list[tuple[float, float]] = []


def _on_gc(phase: str, info: dict) -> None:
    generation = info["generation"]
    if phase == "start":
        # Counting the generations' objects costs as much as a collection: only here.
        _started["size"] = sum(len(gc.get_objects(generation=g)) for g in range(generation + 1))
        _started["wall"], _started["cpu"] = time.perf_counter(), time.thread_time()
        return
    wall = time.perf_counter() - _started["wall"]
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
    print(f"probe: {len(_stalls)} event-loop stalls over 10 ms (ms, s):", file=out)
    for late, at in _stalls:
        print(f"  stall {late * 1000:6.1f} {at:6.1f}", file=out)
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
