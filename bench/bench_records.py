#!/usr/bin/env python3
"""Match record figures: the record page and its replay for a 100-reading karuta match
(server time, cold and cached), and the retention purge of 1,000,000 old log rows while a
match is being played, with that match's move latency against a baseline measured in the
same process just before. Prints figures; asserts nothing (tests assert behaviour).

  DATABASE_URL=postgres://postgres@127.0.0.1:5432/hyakunin_rec_bench \\
      python bench/bench_records.py              # PostgreSQL (the purge goal's database)
  python bench/bench_records.py                  # SQLite (a file under var/)
  options: --rows 1000000 --per-match 100 --repeat 20 --skip-page --skip-purge
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import django_env  # bench/: the script's own folder is on sys.path

django_env.setup("config.settings_test", "bench-records.sqlite3")

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from matches import services  # noqa: E402
from matches.models import Action, Match  # noqa: E402
from records import retention, store  # noqa: E402
from records.models import Record  # noqa: E402


class _Patch:
    """tests.records.play's Clock wants pytest's monkeypatch: this is the little it uses."""

    def __init__(self):
        self.undo_list = []

    def setattr(self, target, name, value):
        self.undo_list.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def undo(self):
        for target, name, value in reversed(self.undo_list):
            setattr(target, name, value)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def karuta_match():
    """A vs-CPU chirashi game over all 100 poems: 100 readings, touches stamped as a client
    on a 10 ms link would send them (tests/records/play.py)."""
    from tests.records.play import Clock, play_match

    settings.MATCHES_CPU_DELAY_MS = 0
    karuta = {"mode": "chirashi", "players": 2, "memorise_seconds": 0, "pace": "fast"}
    match, _token = services.create_match("karuta", karuta, "cpu", "futsu")
    patch = _Patch()
    try:
        play_match(match.id, [0], Clock(patch), seed=11)
    finally:
        patch.undo()
    return Match.objects.get(pk=match.id)


def timed(client: Client, path: str, **headers) -> tuple[float, int, int]:
    started = time.perf_counter()
    response = client.get(path, headers=headers)
    elapsed = time.perf_counter() - started
    return elapsed, response.status_code, len(response.content)


def bench_page(repeat: int) -> None:
    started = time.perf_counter()
    match = karuta_match()
    readings = match.state["read"] if isinstance(match.state, dict) else []
    rows = match.actions.count()
    print(f"karuta match: {len(readings)} readings, {rows} log rows "
          f"(played in {time.perf_counter() - started:.1f} s)")  # fmt: skip
    client = Client(HTTP_HOST="localhost")
    opened = client.get(f"/play/{match.id}/record/")
    assert opened.status_code == 302, opened.status_code
    address = opened["Location"]
    cold_page = timed(client, address)
    cold_json = timed(client, f"{address}record.json", accept_encoding="gzip")
    cold_preview = timed(client, f"{address}preview.png")
    pages = [timed(client, address)[0] for _ in range(repeat)]
    jsons = [
        timed(client, f"{address}record.json", accept_encoding="gzip")[0] for _ in range(repeat)
    ]
    previews = [timed(client, f"{address}preview.png")[0] for _ in range(repeat)]
    record = Record.objects.get(match=match)
    document = store.document(record)
    print(f"replay document: {len(document['steps'])} steps, "
          f"{cold_json[2] / 1024:.0f} KiB gzip")  # fmt: skip
    print(
        f"record page (server time, in-process client): first {ms(cold_page[0])}; "
        f"then median {ms(statistics.median(pages))}, max {ms(max(pages))} over {repeat}"
    )
    print(
        f"replay JSON: first (replayed from the log and stored) {ms(cold_json[0])}; "
        f"then median {ms(statistics.median(jsons))}, max {ms(max(jsons))}"
    )
    print(
        f"preview PNG: first (drawn) {ms(cold_preview[0])}; "
        f"then median {ms(statistics.median(previews))}"
    )


def fill_old_matches(rows: int, per_match: int) -> int:
    """Old finished matches with `per_match` log rows each, inserted in SQL (the purge is
    what is timed, not the setup)."""
    matches = rows // per_match
    old = timezone.now() - timezone.timedelta(days=settings.RECORDS_RETENTION_DAYS + 10)
    m, a = Match._meta.db_table, Action._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"INSERT INTO {m} (id, game, settings, seed, mode, status, seq, turns, created, "
                f"updated) SELECT md5(i::text || 'rec')::uuid, 'bozu', '{{}}', i, 'cpu', "
                f"'finished', %s, '{{}}', %s, %s FROM generate_series(1, %s) i",
                [per_match, old, old, matches],
            )
            cursor.execute(
                f"INSERT INTO {a} (match_id, seq, kind, seat, action, events, actor, created) "
                f"SELECT md5(i::text || 'rec')::uuid, s, 'game', 0, '{{\"type\": \"draw\"}}', "
                f"'[]', 'cpu', %s FROM generate_series(1, %s) i, generate_series(1, %s) s",
                [old, matches, per_match],
            )

        else:
            import uuid

            ids = [uuid.uuid4().hex for _ in range(matches)]
            cursor.executemany(
                f"INSERT INTO {m} (id, game, settings, seed, mode, status, seq, turns, created, "
                f"updated) VALUES (%s, 'bozu', '{{}}', 1, 'cpu', 'finished', %s, '{{}}', %s, %s)",
                [(i, per_match, old, old) for i in ids],
            )
            cursor.executemany(
                f"INSERT INTO {a} (match_id, seq, kind, seat, action, events, actor, created) "
                f"VALUES (%s, %s, 'game', 0, '{{\"type\": \"draw\"}}', '[]', 'cpu', %s)",
                [(i, s, old) for i in ids for s in range(1, per_match + 1)],
            )
    if connection.vendor == "postgresql":
        # As autovacuum leaves a table between daily runs: earlier runs' dead rows (this
        # bench, run again) would otherwise make every later purge slower than the last.
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {m}")
            cursor.execute(f"VACUUM ANALYZE {a}")
    return matches


class Player(threading.Thread):
    """Plays Bozu hot-seat matches move after move (a new one when one ends), timing each
    `submit_action` as the socket would call it."""

    def __init__(self):
        super().__init__(daemon=True)
        self.latencies: list[tuple[float, float]] = []  # (when, seconds)
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            settings.MATCHES_CPU_DELAY_MS = 0
            match_id, n = None, 0
            while not self.stop.is_set():
                if match_id is None:
                    match, _token = services.create_match("bozu", {"players": 2}, "hotseat")
                    match_id = match.id
                started = time.perf_counter()
                services.submit_action(match_id, [0, 1], {"type": "draw"}, action_id=f"b{n}")
                self.latencies.append((started, time.perf_counter() - started))
                n += 1
                if Match.objects.filter(pk=match_id, status="finished").exists():
                    match_id = None
        except BaseException as exc:  # reported by the main thread
            self.error = exc
        finally:
            connections.close_all()

    def between(self, start: float, end: float) -> list[float]:
        return [s for t, s in self.latencies if start <= t < end]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def bench_purge(rows: int, per_match: int) -> None:
    retention.purge(timezone.now() + timezone.timedelta(days=3650))  # start from nothing old
    started = time.perf_counter()
    matches = fill_old_matches(rows, per_match)
    print(f"setup: {matches:,} old finished matches, {matches * per_match:,} log rows "
          f"({time.perf_counter() - started:.1f} s)")  # fmt: skip
    player = Player()
    player.start()
    time.sleep(1.0)  # warm up
    base_start = time.perf_counter()
    time.sleep(4.0)
    base_end = purge_start = time.perf_counter()
    result = retention.purge()
    purge_end = time.perf_counter()
    player.stop.set()
    player.join()
    if player.error:
        raise player.error
    print(f"purge [{connection.vendor}]: {result['actions']:,} log rows of {result['matches']:,}"
          f" matches deleted in {purge_end - purge_start:.2f} s "
          f"({result['actions'] / (purge_end - purge_start):,.0f} rows/s, batches of "
          f"{retention.BATCH} matches)")  # fmt: skip
    base, during = player.between(base_start, base_end), player.between(purge_start, purge_end)
    for name, values in (("before the purge", base), ("during the purge", during)):
        print(
            f"  moves {name}: {len(values)}, p50 {ms(percentile(values, 0.5))}, "
            f"p95 {ms(percentile(values, 0.95))}, max {ms(max(values) if values else 0)}"
        )
    if base and during:
        ratio = percentile(during, 0.5) / percentile(base, 0.5)
        ratio95 = percentile(during, 0.95) / percentile(base, 0.95)
        print(f"  during/before: p50 x{ratio:.2f}, p95 x{ratio95:.2f}")
    started = time.perf_counter()
    again = retention.purge()
    print(f"purge again: {again} in {ms(time.perf_counter() - started)} (idempotent)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--per-match", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument("--skip-purge", action="store_true")
    args = parser.parse_args()
    call_command("migrate", "--noinput", verbosity=0)
    print(
        f"database: {connection.vendor} {connection.settings_dict['NAME']}; "
        f"{os.cpu_count()} cores (shared with other work); load {os.getloadavg()}"
    )
    if not args.skip_page:
        bench_page(args.repeat)
    if not args.skip_purge:
        bench_purge(args.rows, args.per_match)


if __name__ == "__main__":
    main()
