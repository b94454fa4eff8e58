"""Lobby benchmark (issue 39): prints figures, asserts nothing, is not part of the test run.

  DATABASE_URL=postgres://postgres@127.0.0.1:5432/lobby_bench \
  REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/bench_lobby.py

Parts (--only wave,arrivals,board,fairplay; all by default):
- wave: server CPU of one wave with --seekers waiting (this process's CPU around
  store.run_wave on PostgreSQL, plus the PostgreSQL backends' CPU over the same call): all
  in one pool, and spread over the 22 quick pools. Median of three.
- arrivals: two wave-runner processes (each runs the pools' due waves every second, as each
  daphne process's ticker does; the wave policy is the production one: every 12 s, or at
  once at 20 waiting) while this process adds --rate seekers a second to one pool for
  --seconds; time to pair = paired_at - joined_at, p50 / p99. Matches are not started (that
  is the match layer's cost: create_match_for, 10-180 ms each here).
- board: two daphne processes on PostgreSQL + Redis, --sockets lobby sockets split between
  them (loopback, held by --clients client processes), then --updates changes to the
  board: time from the change's notice to each socket's new board frame, p50 / p99 over
  every socket and update.
- fairplay: the take-time check: how many takes until a client taking every card 100-130 ms
  after its deciding kana is flagged (1,000 such clients, the connection's delay estimated
  within +-3 ms), and how many of ten accounts playing 10,000 takes of the 名人 CPU (through
  the real engine) are flagged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
PY = sys.executable
POOL = "karuta-competitive-standard-casual"


def env_for_children() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def setup_django() -> None:
    from bench import django_env

    django_env.setup("config.settings", "bench-lobby.sqlite3")
    os.environ["SECRET_KEY"] = os.environ.get("SECRET_KEY", "")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def clear() -> None:
    from lobby.models import Pairing, PoolState, Seeker

    Seeker.objects.all().delete()
    Pairing.objects.all().delete()
    PoolState.objects.all().delete()


def fill(count: int, keys: list[str], rng: random.Random) -> None:
    from django.utils import timezone

    from lobby import pools
    from lobby.models import PoolState, Seeker

    now = timezone.now()
    rows = []
    for i in range(count):
        pool = pools.get(keys[i % len(keys)])
        rows.append(
            Seeker(
                kind=Seeker.Kind.POOL, pool=pool.key, game=pool.game, settings=dict(pool.settings),
                seats=pool.seats, rated=pool.rated, person=f"gbench{i}",
                rating=rng.gauss(1500, 250), misses=rng.randrange(4), joined_at=now, seen_at=now,
            )
        )  # fmt: skip
    Seeker.objects.bulk_create(rows, batch_size=1000)
    PoolState.objects.bulk_create([PoolState(pool=k) for k in keys], ignore_conflicts=True)


def postgres_cpu() -> float:
    from bench.bench_matches import cpu_seconds

    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(entry.name)
            except OSError:
                continue
    return total


def part_wave(args) -> None:
    from lobby import pairing, pools, store
    from lobby.models import Seeker

    rng = random.Random(39)
    keys_all = sorted(pools.all_pools())
    for label, keys in (("one pool", [POOL]), (f"all {len(keys_all)} pools", keys_all)):
        runs = []
        for _ in range(3):
            clear()
            fill(args.seekers, keys, rng)
            members = {k: [store._member(s) for s in Seeker.objects.filter(pool=k)] for k in keys}
            pure0 = time.process_time()
            for k in keys:
                pairing.wave(members[k], pools.get(k).seats)
            pure = time.process_time() - pure0
            before0 = time.process_time()  # the same windows matched by networkx, as before
            for k in keys:
                if pools.get(k).seats == 2:
                    pairing.pair_wave(members[k], match=pairing.match_networkx)
            before = time.process_time() - before0
            db0, cpu0, wall0 = postgres_cpu(), time.process_time(), time.perf_counter()
            made = sum(len(store.run_wave(k, force=True)) for k in keys)
            runs.append(
                (time.process_time() - cpu0, postgres_cpu() - db0, time.perf_counter() - wall0,
                 pure, before, made)
            )  # fmt: skip
        cpu, db, wall, pure, before, made = (statistics.median(x) for x in zip(*runs, strict=True))
        print(
            f"wave, {args.seekers} seekers, {label}: server CPU {cpu * 1000:.0f} ms "
            f"(the matching alone {pure * 1000:.0f} ms; by networkx, as before, "
            f"{before * 1000:.0f} ms) + PostgreSQL {db * 1000:.0f} ms, "
            f"wall {wall * 1000:.0f} ms, {made:.0f} groups"
        )


RUNNER = """
import sys, time, django
django.setup()
from lobby import store
while True:  # until the bench stops it
    began = time.monotonic()
    for key in store.due_pools():
        store.run_wave(key)
    time.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
"""


def part_arrivals(args) -> None:
    from lobby import store
    from lobby.models import Seeker

    clear()
    rng = random.Random(20)
    total = args.rate * args.seconds
    runners = [
        subprocess.Popen([PY, "-c", RUNNER], env=env_for_children(), cwd=ROOT)
        for _ in range(2)
    ]  # fmt: skip
    try:
        began = time.monotonic()
        for i in range(total):
            due = began + i / args.rate
            time.sleep(max(0.0, due - time.monotonic()))
            seeker = store.join_pool(POOL, store.Person(f"garr{i}"))
            Seeker.objects.filter(id=seeker.id).update(rating=rng.gauss(1500, 200))
        arrived_in = time.monotonic() - began
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if Seeker.objects.filter(pool=POOL, status="waiting").count() <= 1:
                break
            time.sleep(1)
    finally:
        for proc in runners:
            proc.terminate()
            proc.wait()
    waits = sorted(
        (s.paired_at - s.joined_at).total_seconds()
        for s in Seeker.objects.filter(pool=POOL, status="paired")
    )
    left = Seeker.objects.filter(pool=POOL, status="waiting").count()
    q = lambda p: waits[min(len(waits) - 1, int(p * len(waits)))]  # noqa: E731
    print(
        f"arrivals {args.rate}/s for {args.seconds} s ({total} seekers in {arrived_in:.0f} s, one "
        f"pool, two runner processes): time to pair p50 {q(0.5):.1f} s, p99 {q(0.99):.1f} s, "
        f"max {waits[-1]:.1f} s; "
        f"{len(waits)} paired, {left} still waiting at the end"
    )


async def _watch_sockets(ports: list[int], sessions: list[str], first: int, ready, stop, out):
    """One client process's share of the sockets: every board's (seek count, arrival)."""
    from websockets.asyncio.client import connect

    seen: list[tuple[int, float]] = []
    sockets = []

    async def watch(ws) -> None:
        async for text in ws:
            arrived = time.time()  # before this client's own parsing
            frame = json.loads(text)
            if frame.get("type") == "board":
                seen.append((len(frame["seeks"]), arrived))

    async def open_one(i: int):
        port = ports[(first + i) % len(ports)]
        for attempt in range(5):
            try:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/lobby/ws/?lang=en",
                    additional_headers={"Cookie": f"sessionid={sessions[i]}",
                                        "Origin": "http://localhost"},
                    max_size=2**22,
                )  # fmt: skip
                await ws.recv()  # the first board
                return ws
            except Exception:
                await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError("a socket did not open")

    for start in range(0, len(sessions), 50):  # ramped: daphne drops a connection storm
        sockets += await asyncio.gather(
            *(open_one(i) for i in range(start, min(len(sessions), start + 50)))
        )
    tasks = [asyncio.create_task(watch(ws)) for ws in sockets]
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    for ws in sockets:
        await ws.close()
    out.put(seen)


def _client_process(ports, sessions, first, ready, stop, out) -> None:
    asyncio.run(_watch_sockets(ports, sessions, first, ready, stop, out))


def _board(args, ports: list[int], sessions: list[str]) -> list[float]:
    """The sockets are held by --clients processes (one Python process reading 1,000
    sockets was itself a large part of the figure); this process makes the changes."""
    import multiprocessing

    from asgiref.sync import async_to_sync
    from django.db import connections

    from lobby import store, ticker

    connections.close_all()  # a forked child must not share (and close) this connection
    ctx = multiprocessing.get_context("fork")
    out, stop = ctx.Queue(), ctx.Event()
    share = -(-len(sessions) // args.clients)
    clients = []
    for k in range(args.clients):
        part = sessions[k * share : (k + 1) * share]
        ready = ctx.Event()
        proc = ctx.Process(target=_client_process, args=(ports, part, k * share, ready, stop, out))
        proc.start()
        clients.append((proc, ready))
    for proc, ready in clients:
        while not ready.wait(1):
            if not proc.is_alive():
                raise RuntimeError("a client process died")
    time.sleep(2)
    marks: dict[int, float] = {}
    for n in range(1, args.updates + 1):
        store.open_seek("bozu", {}, False, store.Person(f"gupd{n}"))
        marks[n] = time.time()
        async_to_sync(ticker.announce_change)()
        time.sleep(1.5)
    stop.set()
    got = []
    worst: dict[int, float] = {}
    for _ in clients:
        for count, arrived in out.get(timeout=60):
            if count in marks:
                got.append(arrived - marks[count])
                worst[count] = max(worst.get(count, 0.0), arrived - marks[count])
    for proc, _ready in clients:
        proc.join()
    print("  the last socket reached, update by update (ms):",
          " ".join(f"{worst[n] * 1000:.0f}" for n in sorted(worst)))  # fmt: skip
    return got


def part_board(args) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    from tests.support.server import free_port

    clear()
    sessions = []
    for i in range(args.sockets):
        session = SessionStore()
        session["lobby_guest"] = f"gsock{i}"
        session.create()
        sessions.append(session.session_key)
    env = {**env_for_children(), "HTTPS": "0", "DEBUG": "0", "LOG_LEVEL": "WARNING",
           "ALLOWED_HOSTS": "127.0.0.1,localhost"}  # fmt: skip
    servers = []
    for _ in range(2):
        port = free_port()
        proc = subprocess.Popen(
            [PY, "-m", "daphne", "--access-log", os.devnull, "-b", "127.0.0.1", "-p", str(port),
             "config.asgi:application"], env=env, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        servers.append((proc, port))
    import urllib.request

    try:
        for proc, port in servers:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except Exception:
                    if proc.poll() is not None:
                        raise RuntimeError("daphne exited") from None
                    time.sleep(0.1)
        latencies = _board(args, [p for _, p in servers], sessions)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    latencies.sort()
    q = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000  # noqa: E731
    expected = args.sockets * args.updates
    print(
        f"board update to {args.sockets} sockets on two processes (Redis layer, loopback, "
        f"{args.clients} client processes): "
        f"p50 {q(0.5):.0f} ms, p99 {q(0.99):.0f} ms, max {latencies[-1] * 1000:.0f} ms; "
        f"{len(latencies)} of {expected} deliveries seen"
    )


def part_fairplay(args) -> None:
    from games.karuta import simulate
    from lobby import fairplay

    rng = random.Random(39)
    flagged_at = []
    for _ in range(1000):
        record = fairplay.TakeRecord()
        for n in range(1, 1001):
            release = rng.uniform(1000, 4000)
            owd = rng.uniform(10, 120)
            arrival = release + rng.uniform(100, 130) + owd
            if record.add(fairplay.take_ms(arrival, owd + rng.uniform(-3, 3), release)):
                flagged_at.append(n)
                break
    print(
        f"fair play, 1,000 clients taking 100-130 ms after the deciding kana: flagged "
        f"{len(flagged_at)} of 1,000, after {min(flagged_at)}-{max(flagged_at)} takes"
    )
    accounts = [fairplay.TakeRecord() for _ in range(10)]
    spreads: list[float] = []
    counted, seed = 0, 0
    while counted < 10_000:
        pair = (2 * (seed % 5), 2 * (seed % 5) + 1)

        def note(seat, after, _verse, pair=pair):
            nonlocal counted
            if counted < 10_000:
                record = accounts[pair[seat]]
                record.add(after)
                if len(record.takes) == fairplay.WINDOW:
                    ordered = sorted(record.takes)
                    spreads.append(ordered[int(0.9 * 30)] - ordered[int(0.1 * 30)])
                counted += 1

        simulate.play(["meijin", "meijin"], seed, on_touch=note)
        seed += 1
    print(
        f"fair play, 10,000 takes of the 名人 CPU as ten accounts ({seed} games): "
        f"{sum(a.flagged for a in accounts)} flagged; narrowest 10-90% spread of 30 takes "
        f"{min(spreads):.0f} ms (the check flags at <= {fairplay.SPREAD_MS:.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="wave,arrivals,board,fairplay")
    parser.add_argument("--seekers", type=int, default=2000)
    parser.add_argument("--rate", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--clients", type=int, default=2, help="processes holding the sockets")
    args = parser.parse_args()
    parts = args.only.split(",")
    if set(parts) - {"fairplay"}:
        setup_django()
    else:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    for part in parts:
        {"wave": part_wave, "arrivals": part_arrivals, "board": part_board,
         "fairplay": part_fairplay}[part](args)  # fmt: skip


if __name__ == "__main__":
    main()
