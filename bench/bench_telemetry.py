#!/usr/bin/env python3
"""Telemetry figures: ingest events/s through the real endpoint, and the 30-day purge of
1,000,000 rows. Prints figures; asserts nothing (tests assert behaviour, not speed).

  python bench/bench_telemetry.py                       # SQLite (a file under var/)
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/hyakunin_telemetry_bench \
      python bench/bench_telemetry.py                   # PostgreSQL
  options: --rows 1000000 --clients 20 --requests 25 --batch 10 --skip-ingest --skip-purge

Ingest: daphne in a subprocess (the test settings: DEBUG off, plain HTTP); each client thread
has its own keep-alive connection from its own loopback address (127.77.x.y), as real clients
do, so the per-address limit (30 requests/min) is not what is measured. On PostgreSQL run it
with CONN_MAX_AGE=0: persistent connections leak under ASGI and exhaust max_connections.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import threading
import time

import django_env  # bench/: the script's own folder is on sys.path

django_env.setup("config.settings", "bench-telemetry.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from telemetry.models import TelemetryEvent  # noqa: E402
from tests.support.server import AsgiServer  # noqa: E402


def batch(size: int) -> bytes:
    events = [
        {"kind": "game_start", "game": "bozu", "mode": "cpu", "settings": {"players": "3"}},
        {"kind": "game_end", "game": "bozu", "mode": "cpu", "result": "win",
         "duration": "3-10m", "moves": "30-99"},
    ]  # fmt: skip
    body = {"page_view": secrets.token_hex(16), "device": "other", "memory": "8gb+",
            "cores": "5-8", "browser": "firefox", "os": "linux",
            "events": [events[i % 2] for i in range(size)]}  # fmt: skip
    return json.dumps(body).encode()


def bench_ingest(clients: int, requests: int, size: int) -> None:
    # Test settings: production ones need collectstatic for the home page the start-up probes.
    server = AsgiServer(extra_env={"DJANGO_SETTINGS_MODULE": "config.settings_test"})
    server.start()
    TelemetryEvent.objects.all().delete()
    statuses: list[int] = []
    lock = threading.Lock()

    def client(index: int) -> None:
        source = f"127.77.{index // 250}.{index % 250 + 1}"
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30,
                                          source_address=(source, 0))  # fmt: skip
        mine = []
        for _ in range(requests):
            conn.request("POST", "/api/telemetry/events/", batch(size),
                         {"Content-Type": "application/json"})  # fmt: skip
            response = conn.getresponse()
            response.read()
            mine.append(response.status)
        conn.close()
        with lock:
            statuses.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    server.stop()
    accepted = statuses.count(202)
    stored = TelemetryEvent.objects.count()
    print(f"ingest [{connection.vendor}]: {clients} clients x {requests} requests x {size} events"
          f" = {accepted * size} events in {elapsed:.2f} s -> {accepted * size / elapsed:,.0f}"
          f" events/s, {accepted / elapsed:,.0f} requests/s"
          f" (statuses {sorted(set(statuses))}, rows stored {stored})")  # fmt: skip


def fill(rows: int, days_old: int) -> None:
    """Insert rows in SQL (no ORM objects): the purge is what is timed, not the setup."""
    received = timezone.now() - timezone.timedelta(days=days_old)
    columns = ("received_at, page_view, kind, game, mode, cpu_level, settings, result, moves, "
               "duration, room_origin, outcome, reconnects, render_speed, time_to_3d, abandon, "
               "connection, cache, load_failure, device, memory, cores, browser, os")  # fmt: skip
    values = ("%s, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'game_start', 'bozu', 'cpu', '', '{}', '', "
              "'', '', '', '', '', '', '', '', '', '', '', 'other', '8gb+', '5-8', 'chrome', "
              "'linux'")  # fmt: skip
    table = TelemetryEvent._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {values} "
                           f"FROM generate_series(1, %s)", [received, rows])  # fmt: skip
        else:
            cursor.execute(
                f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %s) "
                f"INSERT INTO {table} ({columns}) SELECT {values} FROM n",
                [rows, received],
            )


def bench_purge(rows: int) -> None:
    TelemetryEvent.objects.all().delete()
    started = time.perf_counter()
    fill(rows, days_old=40)
    fill(1000, days_old=1)  # recent rows that must stay
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {TelemetryEvent._meta.db_table}")
    setup = time.perf_counter() - started
    started = time.perf_counter()
    deleted = TelemetryEvent.objects.purge_expired()
    elapsed = time.perf_counter() - started
    left = TelemetryEvent.objects.count()
    print(f"purge [{connection.vendor}]: {deleted:,} rows deleted in {elapsed:.2f} s "
          f"({deleted / elapsed:,.0f} rows/s, batches of 5,000); {left} recent rows kept; "
          f"setup {setup:.1f} s")  # fmt: skip
    started = time.perf_counter()
    again = TelemetryEvent.objects.purge_expired()
    print(f"purge again [{connection.vendor}]: {again} rows in "
          f"{time.perf_counter() - started:.3f} s (idempotent)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=25)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--skip-purge", action="store_true")
    args = parser.parse_args()
    call_command("migrate", "--noinput", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; "
          f"{os.cpu_count()} cores (shared with other work)")  # fmt: skip
    if not args.skip_ingest:
        bench_ingest(args.clients, args.requests, args.batch)
    if not args.skip_purge:
        bench_purge(args.rows)
    TelemetryEvent.objects.all().delete()


if __name__ == "__main__":
    main()
