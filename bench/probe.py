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
import contextlib
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
    """Call once at import of the ASGI module; `watch()` from inside the running loop.

    The report is written at exit and, under daphne, as its reactor shuts down: a server
    whose database thread is still busy leaves by `os._exit` (config/shutdown.py), which
    runs no atexit handler."""
    gc.callbacks.append(_on_gc)
    atexit.register(_report_once)
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        reactor.addSystemEventTrigger("before", "shutdown", _report_once)


_reported = False


def _report_once() -> None:
    global _reported
    if not _reported:
        _reported = True
        _report()


_watching = False


def watch() -> None:
    global _watching
    if not _watching:
        _watching = True
        asyncio.get_running_loop().create_task(_watch_loop())


# --- the owner path's stages (issue 40) --------------------------------------------------
# Wrapped from outside (production code keeps no counters): each stage's wall times, logged
# at exit as count / p50 / p99 / max / sum in ms.
_stages: dict[str, list[float]] = {}
_counts: Counter = Counter()


def _note(name: str, seconds: float) -> None:
    _stages.setdefault(name, []).append(seconds)


def _stage_report(out=None) -> None:
    out = out or sys.stderr
    print("probe: owner-path stages (name, n, p50, p99, max, sum ms):", file=out)
    for name, values in sorted(_stages.items()):
        ordered = sorted(values)
        n = len(ordered)
        p50, p99 = ordered[n // 2], ordered[min(n - 1, int(0.99 * n))]
        print(f"  stage {name:24} {n:6d} {p50 * 1000:8.1f} {p99 * 1000:8.1f} "
              f"{ordered[-1] * 1000:8.1f} {sum(ordered) * 1000:9.0f}", file=out)  # fmt: skip
    for name, count in sorted(_counts.items()):
        print(f"  count {name:24} {count:6d}", file=out)
    out.flush()


def owner_stages() -> None:
    """Wrap the owner path's steps (matches/owner.py, lease.py, the layer's send, the database
    thread) to time each one."""
    import functools

    from matches import dbcall, lease, owner, snapshots

    @contextlib.contextmanager
    def timing(label):
        """Note how long the block took under `label`, and count it when it raised."""
        t = time.perf_counter()
        try:
            yield
        except BaseException:
            _counts[f"{label} raised"] += 1
            raise
        finally:
            _note(label, time.perf_counter() - t)

    def timed_async(module, name, label=None):
        original = getattr(module, name, None)
        if original is None:
            return  # not in this version of the module

        @functools.wraps(original)
        async def wrapper(*args, **kwargs):
            with timing(label or name):
                return await original(*args, **kwargs)

        setattr(module, name, wrapper)

    def timed_sync(module, name, label=None):
        original = getattr(module, name, None)
        if original is None:
            return  # not in this version of the module

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            with timing(label or name):
                return original(*args, **kwargs)

        setattr(module, name, wrapper)

    # The forwarding side: the whole hop as the forwarding socket waits for it.
    original_forward = owner._forward

    async def forward(holder, match_id, act):
        act = {**act, "probe_sent": time.time()}
        t = time.perf_counter()
        try:
            return await original_forward(holder, match_id, act)
        except BaseException as exc:
            _counts[f"forward {type(exc).__name__}"] += 1
            raise
        finally:
            _note("forward (round trip)", time.perf_counter() - t)

    owner._forward = forward
    original_answer = owner._answer

    async def answer(layer, message):
        sent = message.get("act", {}).get("probe_sent")
        if sent is not None:
            _note("forward: act in transit", time.time() - sent)
        t = time.perf_counter()
        try:
            return await original_answer(layer, message)
        finally:
            _note("owner: answer (all)", time.perf_counter() - t)

    owner._answer = answer
    timed_async(owner, "_enqueue", "queue + apply + notices")
    timed_async(owner, "send_notices", "notices sent")
    # owner.py's names for the writers it queues (moves.submit_action, autoplay.advance).
    timed_sync(owner, "submit_action", "apply_act (db thread)")
    original_due = owner.advance

    def advance(match_id, expected_seq=None):
        t = time.perf_counter()
        try:
            moved = original_due(match_id, expected_seq)
        finally:
            _note("apply_due (db thread)", time.perf_counter() - t)
        _counts[f"apply_due moved: {moved is not None}"] += 1
        return moved

    owner.advance = advance
    timed_sync(lease, "take", "lease.take (db thread)")
    from matches import autoplay, moves

    original_fenced = moves.fenced

    def fenced(write):
        try:
            return original_fenced(write)
        except moves.FenceLost:
            _counts["fence lost"] += 1
            raise

    moves.fenced = autoplay.fenced = fenced
    original_current = snapshots.current

    def current(match_id, fresh=False):
        if fresh:
            _counts["snapshot reloaded (fresh)"] += 1
        return original_current(match_id, fresh)

    snapshots.current = current
    # Every call on the database thread: its time on the thread, and as its caller awaits
    # it (the difference is the wait for the thread and the loop's wake-up).
    original_db_call = dbcall.db_call

    def db_call(function):
        inner = original_db_call(function)

        @functools.wraps(function)
        async def call(*args, **kwargs):
            t = time.perf_counter()
            try:
                return await inner(*args, **kwargs)
            finally:
                _note("db call: awaited", time.perf_counter() - t)

        return call

    original_keep = dbcall.call_keeping_connection

    def keep(function, *args, **kwargs):
        t = time.perf_counter()
        try:
            return original_keep(function, *args, **kwargs)
        finally:
            took = time.perf_counter() - t
            _note("db thread: run", took)
            name = getattr(function, "__qualname__", "?")
            if name.startswith("collecting_notices") and function.__closure__:
                inner = function.__closure__[0].cell_contents  # the function it wraps
                name = "notices of " + getattr(inner, "__qualname__", "?")
            _note(f"  run: {name}", took)

    dbcall.call_keeping_connection = keep
    for module in _db_call_users():
        if getattr(module, "db_call", None) is original_db_call:
            module.db_call = db_call
    atexit.register(_stage_report)
    # daphne may not reach its atexit handlers when stopped: the report is also written
    # every 5 s to VAR_DIR/stages-<pid>.txt.
    import os
    import threading

    path = os.path.join(os.environ.get("VAR_DIR", "."), f"stages-{os.getpid()}.txt")

    def keep_writing() -> None:
        while True:
            time.sleep(5)
            with contextlib.suppress(Exception), open(path + ".new", "w") as out:
                _stage_report(out)
            with contextlib.suppress(OSError):
                os.replace(path + ".new", path)

    threading.Thread(target=keep_writing, daemon=True).start()


def _db_call_users():
    import importlib

    for name in ("matches.owner", "matches.consumers", "matches.frames", "matches.broadcast",
                 "matches.driver", "matches.groupcommit", "matches.dbcall"):  # fmt: skip
        yield importlib.import_module(name)
