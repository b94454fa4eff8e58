"""Match server benchmark: move round trip and moves/s, against two baselines.

For each N in --matches, N friend matches with --players human bot clients each
(the `websockets` library, loopback) play for --seconds; every move's round trip
is timed from sending `act` to receiving its `ack` (the actor's own state frame
comes just before the ack; the other seats get theirs through the group), and
"seen" from sending `act` until every seat of the match has had the move's state
frame: on two processes the others' frames cross Redis, which the ack does not. In the
same server process(es), with the same sockets, requests in flight (one per match)
and time, two baselines run:
- echo: a bare consumer sends every frame straight back (1 frame in, 1 out);
- floor: a move's frames without the move. A socket's frame is told to its group of
  --players sockets through the channel layer and each member sends a frame the size
  of the state frames just measured, the sender an ack too (1 in, 5 out, 4 group
  deliveries). The gap between floor and move is the match server's own cost; the
  gap between echo and floor is what any server pays to tell four people a move.
Our figures are printed as ratios of both. With --record a third baseline runs after the
floor: the floor plus the one durable write a move cannot skip (an INSERT, committed before
the actor's frame, which carries its ack), printed as server CPU per round beside the floor's
and the move's: what a move costs beyond it is the game and its frames (docs/matches.md).
With --lean a fourth runs last: the cheapest honest move a rebuilt layer could make with the
real game (bench/lean_move.py): one owner per match in the server's memory, the act parsed
strictly and applied by the game's engine (refusals possible), one log row INSERTed per act,
then one delta per match (the seq, the events, who acts next; the actor's ack in it) encoded
once and sent through the group. Its bots take turns as the game says (the delta's to_act),
each acting once its own socket has had the last delta. It needs a match's sockets on one
process: it runs on "embedded" and "proxied", not on "scaleout" (no forwarding is modelled).

Each N runs twice:
- "flat out": every match acts again the moment its last move is acknowledged, so
  the server is saturated; this gives the throughput (moves/s against echo msg/s).
  Latency here is only queueing (N moves in flight / throughput).
- "paced": each bot waits --think seconds (uniform in the range) before each move,
  like a person drawing a card; this gives the round trip people feel at that load.
  The baselines are paced the same way.
Moves (and echoes) are timed from --warmup seconds after every socket has opened, so
the figures are the steady state, not the connection storm of the ramp.

Setups: "embedded" = one daphne process on the embedded defaults (SQLite file,
in-memory channel layer); "scaleout" = two daphne processes sharing PostgreSQL
(--database-url) and Redis (--redis-url), each match's bots split across both (seat i on
server i mod 2); "proxied" = the same two processes behind nginx with the deploy site's
routing (deploy/nginx/hyakunin.conf, its upstreams and locations, in plain HTTP: see
tests/support/nginx.py), every socket dialled through nginx: a match's sockets all reach
the process its id hashes to (issue 40's proxy design), the echo sockets are balanced
round robin, and the floor's (and record's) groups are hashed by their path as a match is
(one location the bench adds, to the site's hashed upstream), so a group shares a process
as a match's seats do. nginx's CPU (master and workers) is counted in the server column,
and printed apart below the CPU table. The site's cap of connections per client address
is lifted for the bench (every bot is 127.0.0.1).

  .venv/bin/python bench/bench_matches.py --matches 50,200,500 --seconds 15 --settle 5

Prints figures, asserts nothing (docs/architecture.md §6). Connections are ramped (--ramp per
second) because daphne drops handshakes in a connection storm (docs/architecture.md §7).
A second table says where the CPU went in each timed window, in ms of CPU per move (per
echo, per floor round): the server processes, the database and Redis servers (PostgreSQL
backends, redis-server; SQLite is inside the server), and the bots (this process), with
the machine's busy share. When the machine is saturated, moves/s is at most
cores × 1000 / (the row's total ms): that is the ceiling the ratios above meet.
BENCH_PROBE=1 makes the servers log their garbage-collector pauses and event-loop
stalls (bench/probe.py) and this script print each match run's timed window;
BENCH_WINDOW_FILE=path writes the epoch second that window starts at into that file
(for a sampling profiler such as py-spy to attach to the servers then).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
PY = sys.executable

from tests.support.server import free_port  # noqa: E402


def pick_game(name: str) -> tuple[str, str]:
    """(game slug, settings module). Bozu once its engine exists; else the test game."""
    if name == "auto":
        name = "bozu" if (ROOT / "games" / "bozu" / "engine.py").exists() else "hiddenhand"
    return name, ("config.settings_test" if name == "hiddenhand" else "config.settings")


def wait_answering(port: int, proc: subprocess.Popen, name: str, tries: int) -> None:
    """Until the process on `port` answers an HTTP request (any status), 0.1 s apart."""
    import urllib.error
    import urllib.request

    for _ in range(tries):
        try:
            # A page without static files: production settings have no manifest here.
            urllib.request.urlopen(
                f"http://127.0.0.1:{port}/api/telemetry/schema/", timeout=1
            ).close()
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited") from None
            time.sleep(0.1)


class Setup:
    def __init__(self, kind: str, settings_module: str, args: argparse.Namespace):
        self.kind = kind
        self.baselines = {"record": args.record, "lean": args.lean}
        self.var = ROOT / "var" / "bench" / kind
        self.env = dict(os.environ)
        for key in ("DATABASE_URL", "REDIS_URL", "CI"):
            self.env.pop(key, None)
        self.env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            DJANGO_SETTINGS_MODULE=settings_module,
            HTTPS="0",
            DEBUG="0",
            VAR_DIR=str(self.var),
            LOG_LEVEL="WARNING",
            # DEBUG=0 needs a key (settings refuse to make one up); a throwaway one per run.
            SECRET_KEY=os.environ.get("SECRET_KEY") or f"bench-{os.getpid()}-{'k' * 40}",
        )
        if kind in ("scaleout", "proxied"):
            self.env.update(DATABASE_URL=args.database_url, REDIS_URL=args.redis_url)
        self.processes = 1 if kind == "embedded" else 2
        self.servers: list[tuple[subprocess.Popen, int]] = []
        self.nginx: subprocess.Popen | None = None
        self.nginx_port = 0

    def prepare(self) -> None:
        shutil.rmtree(self.var, ignore_errors=True)
        self.var.mkdir(parents=True)
        if self.kind in ("scaleout", "proxied"):
            server, name = self.env["DATABASE_URL"].rsplit("/", 1)
            # Quoted: a name may hold a dash (s8_match-perf_bench).
            for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
                subprocess.run(["psql", f"{server}/postgres", "-qc", sql], check=True)
            import redis

            redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()
        subprocess.run([PY, ROOT / "manage.py", "migrate", "-v", "0"], env=self.env, check=True)
        if any(self.baselines.values()):  # their tables, before the servers write to them
            code = ("import django; django.setup(); from bench import baseline_tables; "
                    f"baseline_tables.create(**{self.baselines!r})")  # fmt: skip
            subprocess.run([PY, "-c", code], env=self.env, cwd=ROOT, check=True)

    def start(self) -> None:
        for _ in range(self.processes):
            port = free_port()
            log = (self.var / f"daphne-{port}.log").open("wb")
            proc = subprocess.Popen(
                [PY, "-m", "daphne", "--access-log", os.devnull, "-b", "127.0.0.1",
                 "-p", str(port), "bench.asgi_bench:application"],
                env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            self.servers.append((proc, port))
        for proc, port in self.servers:
            wait_answering(port, proc, "daphne", tries=200)
        if self.kind == "proxied":
            self.start_nginx()

    def start_nginx(self) -> None:
        """The deploy site in front of the servers (plain HTTP), as tests/support/nginx.py
        runs it, plus the bench's floor location and no cap per client address."""
        import re

        from tests.support.nginx import local_site, nginx_binary, write_conf

        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("the proxied setup needs nginx")
        folder = self.var / "nginx"
        folder.mkdir()
        self.nginx_port = free_port()
        site = local_site(folder, ROOT, free_port(), self.nginx_port, self.ports)
        site, capped = re.subn(r"limit_conn hyakunin_per_client \d+;",
                               "limit_conn hyakunin_per_client 60000;", site)  # fmt: skip
        matches = "        location ~ ^/play/[0-9a-f-]+/ws/$ {"
        assert capped == 1 and matches in site, "the deploy site changed: update the bench"
        floor = ("        location ~ ^/bench/(fanout|record|lean)/ {\n"
                 "            proxy_pass http://hyakunin_matches;\n        }\n")  # fmt: skip
        site = site.replace(matches, floor + matches)
        conf = write_conf(folder, site, workers=os.cpu_count() or 1, connections=8192)
        self.nginx = subprocess.Popen(
            [binary, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=(folder / "stderr.log").open("wb"),
        )  # fmt: skip
        wait_answering(self.nginx_port, self.nginx, "nginx", tries=100)

    def proxy_pids(self) -> list[int]:
        """nginx's master and its workers (nothing on the other setups)."""
        if self.nginx is None:
            return []
        pids = [self.nginx.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                if ppid == self.nginx.pid:
                    pids.append(int(entry.name))
        return pids

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
            self.nginx = None
        for proc, _port in self.servers:
            proc.terminate()
        for proc, _port in self.servers:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.servers = []

    @property
    def ports(self) -> list[int]:
        return [port for _proc, port in self.servers]

    @property
    def dial_ports(self) -> list[int]:
        """Where the bots connect: nginx on the proxied setup, else the servers."""
        return [self.nginx_port] if self.nginx is not None else self.ports


def create_matches(setup: Setup, game: str, count: int, players: int) -> list[dict]:
    """Friend matches with every seat taken, created in a child process on the same DB."""
    code = f"""
import json, django
django.setup()
import gamekit
from matches import services
game = gamekit.registry.get({game!r})
form = game.settings_form(data=None) if game.settings_form else None
initial = {{}}
if form is not None:
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value is None and getattr(field, "choices", None):
            value = list(field.choices)[0][0]
        initial[name] = value
    initial["players"] = {players}
    bound = game.settings_form(data=initial)
    assert bound.is_valid(), bound.errors
    settings = game.settings_from_form(bound.cleaned_data)
else:
    settings = {{"players": {players}}}
if {game!r} == "hiddenhand":
    settings["turns"] = 200
out = []
for _ in range({count}):
    match, token = services.create_match(game.slug, settings, "friend")
    tokens = [token] + [services.join(match.invite_code)[2] for _ in range({players} - 1)]
    out.append({{"id": str(match.id), "tokens": tokens}})
print(json.dumps(out))
"""
    result = subprocess.run(
        [PY, "-c", code], env=setup.env, cwd=ROOT, capture_output=True, text=True, check=False
    )
    if result.returncode:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def end_matches(setup: Setup, matches: list[dict]) -> None:
    """Finish a run's matches: their bots have gone, and 45 s later the server would start
    playing the absent players' turns in the middle of the next run."""
    ids = [m["id"] for m in matches]
    code = f"""
import django
django.setup()
from matches.models import Match
Match.objects.filter(pk__in={ids!r}).update(status="finished", due_at=None)
"""
    subprocess.run([PY, "-c", code], env=setup.env, cwd=ROOT, check=True)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


RETRIED = [0]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SERVICES = ("postgres", "redis-server")


def cpu_seconds(pid: int | str) -> float:
    """User + system CPU of a process, all its threads (0 if it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def service_pids() -> list[str]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in SERVICES:
                    pids.append(entry.name)
            except OSError:
                continue
    return pids


class CpuMeter:
    """CPU used by the servers, the services and the bots over one timed window."""

    def __init__(self, server_pids: list[int], proxy_pids: list[int] = ()):
        # The proxy (nginx, "proxied") is in the server column, and read apart too.
        self.groups = {
            "server": lambda: [*server_pids, *proxy_pids],
            "services": service_pids,
            "bots": lambda: [os.getpid()],
            "proxy": lambda: list(proxy_pids),
        }
        self.start: dict | None = None
        self.used: dict[str, float] = {}
        self.wall = 0.0

    def _read(self) -> dict:
        return {
            name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.groups.items()
        }

    async def window(self, warmup: float, seconds: float) -> None:
        await asyncio.sleep(warmup)
        self.start, self.began = self._read(), time.monotonic()
        await asyncio.sleep(seconds)
        self.stop()

    def stop(self) -> None:
        if self.start is None or self.used:
            return
        end, self.wall = self._read(), time.monotonic() - self.began
        for name, now in end.items():  # a process born in the window counts from zero
            self.used[name] = sum(t - self.start[name].get(pid, 0.0) for pid, t in now.items())

    def per_op(self, ops: int) -> str:
        if not self.used or not ops:
            return f"{'-':>31}"
        each = [1000 * self.used[g] / ops for g in ("server", "services", "bots")]
        used = sum(self.used[g] for g in ("server", "services", "bots"))
        busy = 100 * used / (self.wall * (os.cpu_count() or 1))
        return f"{each[0]:6.2f} {each[1]:5.2f} {each[2]:5.2f} = {sum(each):5.2f} {busy:3.0f}%"


METER: list[CpuMeter] = []  # the running window's meter (each run makes a new one)


async def ramp(openers, per_second: float) -> None:
    """Open sockets at a steady rate; a dropped handshake is retried (and counted)."""

    async def with_retries(opener):
        for attempt in range(4):
            try:
                return await opener()
            except Exception:  # websockets raises several types for a dropped handshake
                if attempt == 3:
                    raise
                RETRIED[0] += 1
                await asyncio.sleep(0.5 * (attempt + 1))

    tasks = []
    for opener in openers:
        tasks.append(asyncio.ensure_future(with_retries(opener)))
        await asyncio.sleep(1 / per_second)
    await asyncio.gather(*tasks)


async def dial(port: int, path: str):
    from websockets.asyncio.client import connect

    url, origin = f"ws://127.0.0.1:{port}{path}", f"http://127.0.0.1:{port}"
    return await connect(url, origin=origin, open_timeout=60)


async def take_turns(tables, round_trip, seconds, think, warmup, rng, pick=None) -> list[float]:
    """One request in flight per table (a list of sockets, like a match's players): its
    sockets take turns to do `round_trip(ws)`, each after a think time when paced. Round
    trips started from `warmup` seconds on are timed, for `seconds`."""
    rtts: list[float] = []
    measure_from = time.perf_counter() + warmup
    stop_at = time.monotonic() + warmup + seconds
    meter = asyncio.ensure_future(METER[-1].window(warmup, seconds))

    async def loop(table):
        n = 0
        while time.monotonic() < stop_at:
            if think:
                await asyncio.sleep(rng.uniform(*think))
            # Whose turn: the next socket round the table, or as `pick` says (lean: the game).
            target = await pick(table) if pick else table[n % len(table)]
            started = time.perf_counter()
            await round_trip(target)
            if started >= measure_from:
                rtts.append(time.perf_counter() - started)
            n += 1

    await asyncio.gather(*(loop(t) for t in tables))
    await meter
    return rtts


async def run_echo(
    ports: list[int],
    sockets: int,
    active: int,
    seconds: float,
    ramp_rate: float,
    think=None,
    warmup: float = 0,
):
    conns: list = [None] * sockets

    async def opener(i: int):
        conns[i] = await dial(ports[i % len(ports)], "/bench/echo/")

    await ramp([lambda i=i: opener(i) for i in range(sockets)], ramp_rate)

    async def echo(ws):
        await ws.send('{"type":"ping"}')
        await ws.recv()

    per = sockets // active
    tables = [conns[k * per : (k + 1) * per] for k in range(active)]  # "a match's" sockets
    rtts = await take_turns(tables, echo, seconds, think, warmup, random.Random(1))
    for ws in conns:
        await ws.close()
    return rtts, seconds


async def run_floor(
    ports: list[int],
    groups: int,
    players: int,
    size: int,
    seconds: float,
    ramp_rate: float,
    think=None,
    warmup: float = 0,
    consumer: str = "fanout",
):
    """`groups` groups of `players` sockets on the fan-out consumer (or `consumer`
    "record": the floor plus a move's one write, its ack on the actor's frame); in each,
    the sockets take turns to send a frame and wait for its ack, as a match's players take
    turns."""
    conns: list[list] = [[None] * players for _ in range(groups)]
    waiting: dict = {}  # socket -> the future its ack resolves

    async def opener(group: int, seat: int):
        path = f"/bench/{consumer}/{group}/{size}/"
        conns[group][seat] = await dial(ports[seat % len(ports)], path)

    await ramp(
        [lambda g=g, s=s: opener(g, s) for g in range(groups) for s in range(players)],
        ramp_rate,
    )

    async def drain(ws):  # every frame is read, as a client must; the ack wakes the sender
        async for text in ws:
            if text.startswith(('{"type":"ack"', '{"type":"state","ack"')):
                waiting.pop(ws).set_result(None)

    async def act(ws):
        waiting[ws] = asyncio.get_running_loop().create_future()
        await ws.send('{"type":"act"}')
        await waiting[ws]

    readers = [asyncio.ensure_future(drain(ws)) for group in conns for ws in group]
    rtts = await take_turns(conns, act, seconds, think, warmup, random.Random(3))
    for group in conns:
        for ws in group:
            await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    return rtts, seconds


class LeanTable:
    """One lean match as its bots know it: the last delta's seq and who acts next, and
    the last seq each of its sockets has had."""

    def __init__(self, sockets: list):
        self.sockets = sockets
        self.seq = -1
        self.to_act: list[int] = []
        self.had: dict = {}  # socket -> the last seq it received
        self.until: dict = {}  # socket -> (seq, future): woken once it has had that seq

    def told(self, ws, seq: int, to_act: list[int]) -> None:
        self.had[ws] = seq
        if seq > self.seq:
            self.seq, self.to_act = seq, to_act
        waiting = self.until.get(ws)
        if waiting is not None and seq >= waiting[0]:
            del self.until[ws]
            waiting[1].set_result(None)

    async def next_actor(self):
        """The socket whose turn it is, once it has had the last delta itself (a real client
        acts on what its own socket was told)."""
        ws = self.sockets[self.to_act[0]]
        if self.had.get(ws, -1) < self.seq:
            future = asyncio.get_running_loop().create_future()
            self.until[ws] = (self.seq, future)
            await asyncio.wait_for(future, 30)  # a lost delta fails the run, never hangs it
        return self, ws


LEAN_IDS = itertools.count(1)  # action ids, unique in this bench process


async def run_lean(
    ports: list[int],
    groups: int,
    players: int,
    seconds: float,
    ramp_rate: float,
    think=None,
    warmup: float = 0,
):
    """`groups` lean matches of `players` seats (bench/lean_move.py) playing `game_slug`
    (Bozu: every act is a draw). Returns the round trips, the refusals and the mean delta."""
    assert len(ports) == 1, "lean: a match's sockets must reach one process"
    if game_slug != "bozu":
        raise SystemExit("--lean: the bench's lean bots play bozu only (every act a draw)")
    conns: list[list] = [[None] * players for _ in range(groups)]
    tables = [LeanTable(conns[g]) for g in range(groups)]
    waiting: dict = {}  # socket -> (action id, the future its ack or refusal resolves)
    counts = {"errors": 0, "deltas": 0, "bytes": 0}

    async def opener(group: int, seat: int):
        path = f"/bench/lean/{group}/{players}/?seat={seat}&game={game_slug}"
        ws = await dial(ports[0], path)
        sync = json.loads(await ws.recv())
        assert sync["type"] == "sync", sync
        conns[group][seat] = ws
        tables[group].told(ws, sync["seq"], sync["to_act"])

    await ramp(
        [lambda g=g, s=s: opener(g, s) for g in range(groups) for s in range(players)],
        ramp_rate,
    )

    async def drain(table, ws):  # every frame is read and parsed, as a client must
        async for text in ws:
            frame = json.loads(text)
            if frame["type"] == "delta":
                counts["deltas"] += 1
                counts["bytes"] += len(text.encode())
                table.told(ws, frame["seq"], frame["to_act"])
                ref = frame["ack"]
            else:
                counts["errors"] += 1
                ref = frame.get("ref")
            if ws in waiting and waiting[ws][0] == ref:
                waiting.pop(ws)[1].set_result(None)

    async def act(target):
        table, ws = target
        action_id = f"lean-{next(LEAN_IDS)}"
        waiting[ws] = (action_id, asyncio.get_running_loop().create_future())
        message = {"type": "act", "action": {"type": "draw"}, "action_id": action_id,
                   "seq": table.seq}  # fmt: skip
        await ws.send(json.dumps(message))
        await asyncio.wait_for(waiting[ws][1], 30)  # no answer: the run fails, not hangs

    readers = [asyncio.ensure_future(drain(t, ws)) for t in tables for ws in t.sockets]
    rtts = await take_turns(
        tables, act, seconds, think, warmup, random.Random(4), pick=LeanTable.next_actor
    )
    for group in conns:
        for ws in group:
            await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    return rtts, counts["errors"], counts["bytes"] // max(1, counts["deltas"])


class SeenByAll:
    """When every seat of one match has had the state frame of a move: the time from
    `act` until everyone at the table can see the move (act -> ack times only the actor)."""

    def __init__(self, players: int, delays: list[float]):
        self.players = players
        self.delays = delays
        self.measure_from = float("inf")
        self.pending: dict[int, tuple[float, set[int]]] = {}  # seq acted at -> (sent, seen by)

    def sent(self, seq: int) -> None:
        self.pending[seq] = (time.perf_counter(), set())

    def seen(self, bot_id: int, seq: int) -> None:
        now = time.perf_counter()
        for acted_at, (sent, seen_by) in list(self.pending.items()):
            if seq > acted_at:
                seen_by.add(bot_id)
                if len(seen_by) == self.players:
                    del self.pending[acted_at]
                    if sent >= self.measure_from:
                        self.delays.append(now - sent)


async def run_matches(ports, matches, players, seconds, ramp_rate, think=None, warmup=0.0):
    from tests.matches.wsbot import Bot, draw_policy, hidden_hand_policy

    class TimedBot(Bot):
        async def recv(self, timeout: float = 30):
            frame = await super().recv(timeout)
            if frame["type"] == "state":
                self.table.seen(id(self), frame["seq"])
            return frame

    rng = random.Random(2)

    bots = []
    seen_delays: list[float] = []
    tables = []
    for m in matches:
        table = SeenByAll(players, seen_delays)
        tables.append(table)
        for seat, token in enumerate(m["tokens"]):
            port = ports[seat % len(ports)]  # a match's players on different processes
            policy = draw_policy if game_slug == "bozu" else hidden_hand_policy
            url = f"ws://127.0.0.1:{port}/play/{m['id']}/ws/"
            # As the browser: the act's ack on its state frame (hello.ack_in_state).
            bot = TimedBot(url, token, policy, keep_frames=False, ack_in_state=True)
            bot.table = table
            bots.append(bot)
    await ramp([lambda b=b: b.open(since=0) for b in bots], ramp_rate)
    measure_from = time.perf_counter() + warmup
    for table in tables:
        table.measure_from = measure_from
    stop_at = time.monotonic() + warmup + seconds
    last_ack = [time.monotonic()]

    async def run(bot):
        while time.monotonic() < stop_at and bot.room.get("status") != "finished":
            seat = bot.my_turn()
            if seat is None:
                try:
                    await bot.until(
                        lambda f: f["type"] in ("state", "room"),
                        timeout=max(0.05, stop_at - time.monotonic()),
                    )
                except TimeoutError:
                    break
                continue
            if think:
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= stop_at:
                    break
            bot.table.sent(bot.seq)
            reply = await bot.act(seat)
            if reply["type"] == "ack":
                last_ack[0] = time.monotonic()

    window_start = time.monotonic() + warmup
    if os.environ.get("BENCH_WINDOW_FILE"):  # a profiler waits for it (the move run's start)
        Path(os.environ["BENCH_WINDOW_FILE"]).write_text(f"{time.time() + warmup}\n")
    if os.environ.get("BENCH_PROBE"):
        at = time.time() + warmup
        print(f"timed window: {at % 1000:.1f} to {(at + seconds) % 1000:.1f} s", file=sys.stderr)
    meter = asyncio.ensure_future(METER[-1].window(warmup, seconds))
    await asyncio.gather(*(run(b) for b in bots))
    METER[-1].stop()  # flat out, every game may end before the window does
    meter.cancel()
    # Matches that end early stop the clock at the last ack (flat out, a Bozu game is short).
    elapsed = max(0.001, min(seconds, last_ack[0] - window_start))
    rtts = [
        rtt
        for b in bots
        for rtt, sent in zip(b.round_trips, b.round_trip_starts, strict=True)
        if sent >= measure_from
    ]
    moves = len(rtts)
    errors = sum(b.errors for b in bots)
    finished = sum(1 for b in bots[::players] if b.room.get("status") == "finished")
    frame_bytes = sum(b.state_bytes for b in bots) // max(1, sum(b.state_frames for b in bots))
    for b in bots:
        await b.close()
    return rtts, moves, elapsed, errors, finished, frame_bytes, seen_delays


game_slug = "bozu"


def main() -> None:
    global game_slug
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--matches", default="50,200")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--ramp", type=float, default=200, help="new sockets per second")
    parser.add_argument("--setups", default="embedded,scaleout")
    parser.add_argument("--settle", type=float, default=10, help="seconds between runs")
    parser.add_argument("--game", default="auto")
    parser.add_argument(
        "--think", default="1,3", help="seconds a paced bot waits before a move: low,high"
    )
    parser.add_argument("--modes", default="flat,paced")
    parser.add_argument(
        "--floor-bytes",
        type=int,
        default=0,
        help="size of the floor's frames (default: the measured mean state frame)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=3,
        help="seconds after the sockets are open before moves are timed (connect storm)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hyakunin_matches_bench"
        ),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="also run the record baseline: the floor plus a move's one database write",
    )
    parser.add_argument(
        "--lean",
        action="store_true",
        help="also run the lean baseline: the real game's move, one log row, one delta "
        "(bench/lean_move.py; not on scaleout)",
    )
    args = parser.parse_args()
    game_slug, settings_module = pick_game(args.game)
    counts = [int(n) for n in args.matches.split(",")]
    print(f"game {game_slug}, {args.players} human bots per match, {args.seconds:.0f} s per run, "
          f"{os.cpu_count()} CPUs; bots and servers share the machine")  # fmt: skip
    think = tuple(float(x) for x in args.think.split(","))
    print(f"paced: a bot waits {think[0]:g}-{think[1]:g} s before each of its moves; "
          f"timed from {args.warmup:g} s after the sockets opened")  # fmt: skip
    header = (
        f"{'setup':9} {'N':>4} {'mode':5} | {'echo p50':>8} {'p99':>7} {'msg/s':>6} "
        f"| {'floor p50':>9} {'p99':>7} {'/s':>5} | {'move p50':>8} {'p99':>7} {'/s':>5} "
        f"{'err':>3} {'bytes':>5} | {'seen p50':>8} {'p99':>7} | {'% echo':>6} {'% floor':>7}"
    )
    print(header)
    print("-" * len(header))
    for kind in args.setups.split(","):
        setup = Setup(kind, settings_module, args)
        setup.prepare()
        try:
            setup.start()
            for n in counts:
                for mode in args.modes.split(","):
                    pace = think if mode == "paced" else None
                    run_one(setup, kind, n, mode, pace, args)
        finally:
            setup.stop()
    print(f"handshakes retried: {RETRIED[0]}")
    print("/s: moves per second (echo: frames echoed per second); bytes: mean state frame;")
    print("seen: from a move's act until every seat of its match has had its state frame;")
    print("% echo, % floor: flat out, our moves/s as a share of each baseline's rate")
    print("(paced, the share is of the offered load, so about 100% means keeping up)")
    print_cpu_table()


def run_one(setup, kind, n, mode, think, args) -> None:
    sockets = n * args.players
    pids, proxy, ports = (
        [proc.pid for proc, _port in setup.servers],
        setup.proxy_pids(),
        setup.dial_ports,
    )
    meters = {}
    METER.append(meters.setdefault("echo", CpuMeter(pids, proxy)))
    echo_rtts, echo_elapsed = asyncio.run(
        run_echo(ports, sockets, n, args.seconds, args.ramp, think, args.warmup)
    )
    time.sleep(args.settle)  # let the echo sockets' closes drain
    # Created just before their bots connect: a seat still empty 45 s after its match began
    # (the disconnect grace) is played for by the server's sweep, which is not the load to
    # measure (created before the echo run, the last seats of 200 matches came 50-60 s on).
    matches = create_matches(setup, game_slug, n, args.players)
    METER.append(meters.setdefault("move", CpuMeter(pids, proxy)))
    rtts, moves, elapsed, errors, _finished, frame_bytes, seen = asyncio.run(
        run_matches(ports, matches, args.players, args.seconds, args.ramp, think, args.warmup)
    )
    end_matches(setup, matches)
    time.sleep(args.settle)  # disconnects update presence in the database
    size = max(26, args.floor_bytes or frame_bytes)
    METER.append(meters.setdefault("floor", CpuMeter(pids, proxy)))
    floor_rtts, floor_elapsed = asyncio.run(
        run_floor(ports, n, args.players, size, args.seconds, args.ramp, think, args.warmup)
    )
    time.sleep(args.settle)
    ops = {"floor": len(floor_rtts)}
    if args.record:
        METER.append(meters.setdefault("record", CpuMeter(pids, proxy)))
        record_rtts, _ = asyncio.run(
            run_floor(ports, n, args.players, size, args.seconds, args.ramp, think,
                      args.warmup, consumer="record")
        )  # fmt: skip
        time.sleep(args.settle)
        ops["record"] = len(record_rtts)
    if args.lean and kind != "scaleout":
        METER.append(meters.setdefault("lean", CpuMeter(pids, proxy)))
        lean_rtts, lean_errors, lean_bytes = asyncio.run(
            run_lean(ports, n, args.players, args.seconds, args.ramp, think, args.warmup)
        )
        time.sleep(args.settle)
        ops["lean"] = len(lean_rtts)
        LEAN_ROWS.append(
            f"{kind:9} {n:>4} {mode:5} | lean p50 {pct(lean_rtts, 0.5):6.1f}ms p99 "
            f"{pct(lean_rtts, 0.99):6.1f}ms {len(lean_rtts) / args.seconds:5.0f}/s | "
            f"refused {lean_errors} | mean delta {lean_bytes} bytes"
        )
    if len(ops) > 1:
        ops["move"] = moves
        BASELINE_ROWS.append(baseline_row(kind, n, mode, meters, ops))
    echo_rate = len(echo_rtts) / echo_elapsed
    floor_rate = len(floor_rtts) / floor_elapsed
    move_rate = moves / elapsed
    print(
        f"{kind:9} {n:>4} {mode:5} | {pct(echo_rtts, 0.5):7.1f}ms {pct(echo_rtts, 0.99):6.1f}ms "
        f"{echo_rate:6.0f} | {pct(floor_rtts, 0.5):8.1f}ms {pct(floor_rtts, 0.99):6.1f}ms "
        f"{floor_rate:5.0f} | {pct(rtts, 0.5):7.1f}ms {pct(rtts, 0.99):6.1f}ms {move_rate:5.0f} "
        f"{errors:>3} {frame_bytes:>5} | {pct(seen, 0.5):7.1f}ms {pct(seen, 0.99):6.1f}ms "
        f"| {100 * move_rate / echo_rate:5.0f}% "
        f"{100 * move_rate / floor_rate:6.0f}%"
    )
    sys.stdout.flush()
    CPU_ROWS.append(
        f"{kind:9} {n:>4} {mode:5} | {meters['echo'].per_op(len(echo_rtts))} "
        f"| {meters['floor'].per_op(len(floor_rtts))} | {meters['move'].per_op(moves)} "
        f"| {ratio(meters, 'server', len(floor_rtts), moves)}"
    )
    if proxy:
        ops = {"echo": len(echo_rtts), "floor": len(floor_rtts), "move": moves}
        each = [per_op(meters[name], "proxy", count) for name, count in ops.items()]
        PROXY_ROWS.append(f"{kind:9} {n:>4} {mode:5} | echo {each[0]:5.2f} | floor "
                          f"{each[1]:5.2f} | move {each[2]:5.2f}")  # fmt: skip


def per_op(meter: CpuMeter, group: str, ops: int) -> float:
    used = meter.used.get(group)
    return 1000 * used / ops if used is not None and ops else float("nan")


def ratio(meters: dict, group: str, floor_ops: int, moves: int) -> str:
    """A group's CPU per move over its CPU per floor round (issue 40's budget: <= 1.5x)."""
    return (
        f"{per_op(meters['move'], group, moves) / per_op(meters['floor'], group, floor_ops):5.2f}x"
    )


CPU_ROWS: list[str] = []
BASELINE_ROWS: list[str] = []
LEAN_ROWS: list[str] = []
PROXY_ROWS: list[str] = []


def baseline_row(kind, n, mode, meters, ops: dict[str, int]) -> str:
    """Server CPU per op of the floor, the baselines that ran (record, lean) and the move,
    each but the floor with its ratio to the floor."""
    each = {}
    for name, count in ops.items():
        used = meters[name].used.get("server")
        each[name] = 1000 * used / count if used and count else float("nan")
    cells = [f"floor {each['floor']:5.2f}"]
    for name in ("record", "lean", "move"):
        if name in each:
            cells.append(f"{name} {each[name]:5.2f} ({each[name] / each['floor']:4.2f}x)")
    return f"{kind:9} {n:>4} {mode:5} | " + " | ".join(cells)


def print_cpu_table() -> None:
    cols = f"{'server':>6} {'svc':>5} {'bots':>5}   {'total':>5} {'busy':>4}"
    header = f"{'CPU ms per op':20} | {cols} | {cols} | {cols} | {'floor':>6}"
    print()
    print(f"{'':20} | {'echo':^31} | {'floor':^31} | {'move':^31} | {'move ÷':>6}")
    print(header)
    print("-" * len(header))
    for row in CPU_ROWS:
        print(row)
    print("CPU ms per op: server processes, database + Redis servers (svc), bots; busy: the")
    print("share of all cores used in the window (near 100%: the machine is the limit);")
    print("move ÷ floor: the server column's CPU per move over its CPU per floor round")
    if PROXY_ROWS:
        print()
        print("nginx's CPU ms per op (inside the server column above):")
        for row in PROXY_ROWS:
            print(row)
    if BASELINE_ROWS:
        print()
        print("server CPU ms per round (x the floor's): floor, record (the floor plus a move's")
        print("one durable write, its ack on the actor's frame), lean (the real game's act, one")
        print("log row, one delta per match: bench/lean_move.py), move; nginx included (proxied)")
        for row in BASELINE_ROWS:
            print(row)
    if LEAN_ROWS:
        print()
        print("lean: act to ack (the delta naming the act) and acts per second; refused acts")
        for row in LEAN_ROWS:
            print(row)


if __name__ == "__main__":
    main()
