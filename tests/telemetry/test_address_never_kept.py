"""Through the real server (daphne) from a distinctive client address: the address reaches
no database row and no log line, while the in-memory limit still tells clients apart."""

from __future__ import annotations

import http.client
import json
import sqlite3
from pathlib import Path

import pytest
from django.db import connection

from telemetry.models import TelemetryEvent
from tests.support.server import AsgiServer
from tests.telemetry.helpers import ENDPOINT, batch, game_end, game_start

CLIENT = "127.45.67.89"  # any 127.x address reaches the loopback server on Linux
NEIGHBOUR = "127.45.67.90"


@pytest.fixture
def server(transactional_db):
    # DEBUG logging everywhere, so that any library that would log the address gets the chance.
    server = AsgiServer(extra_env={"LOG_LEVEL": "DEBUG"})
    server.start()
    yield server
    server.stop()


def post_from(server: AsgiServer, source: str, body: object, times: int = 1) -> list[int]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10,
                                      source_address=(source, 0))  # fmt: skip
    codes = []
    try:
        for _ in range(times):
            conn.request("POST", ENDPOINT, json.dumps(body),
                         {"Content-Type": "application/json"})  # fmt: skip
            response = conn.getresponse()
            response.read()
            codes.append(response.status)
    finally:
        conn.close()
    return codes


def database_dump() -> str:
    """Every row of every table, as text; for SQLite also the raw database and WAL bytes."""
    parts = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            parts.append(f"{table}: {cursor.fetchall()!r}")
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        dump = sqlite3.connect(name)
        parts.extend(dump.iterdump())
        dump.close()
        for path in (Path(name), Path(f"{name}-wal")):
            if path.exists():
                parts.append(path.read_bytes().decode("latin-1"))
    return "\n".join(parts)


def test_events_from_a_distinctive_address_leave_no_trace_of_it(server):
    limit = 30  # settings.TELEMETRY_RATE_LIMIT
    assert post_from(server, CLIENT, batch(game_start(), game_end())) == [202]
    assert post_from(server, CLIENT, batch(game_start(room_id="r-1"))) == [400]
    assert post_from(server, CLIENT, {"not": "a batch"}) == [400]
    # A flood from the same address: refused once past the limit...
    codes = post_from(server, CLIENT, batch(), times=limit)
    assert codes[: limit - 3] == [202] * (limit - 3) and codes[-1] == 429
    # ...while a neighbouring address is not: the server did tell the addresses apart.
    assert post_from(server, NEIGHBOUR, batch()) == [202]
    server.stop()  # flush and close every log

    assert TelemetryEvent.objects.count() == 2 + (limit - 3) + 1
    dump = database_dump()
    assert "game_start" in dump  # the dump does hold the events
    assert CLIENT not in dump and NEIGHBOUR not in dump

    log = server.log()
    assert server.log_path.exists()
    assert CLIENT not in log and NEIGHBOUR not in log, log[-2000:]
    assert "127.45." not in log


def test_accounts_from_a_distinctive_address_leave_no_trace_of_it(transactional_db, caplog):
    """The players app's tables (profiles, passkeys, codes, sessions, trainer reviews) and
    its log lines: signing up, in and out, codes and the export keep no address."""
    from django.test import Client

    from players.models import DeviceSession

    caplog.set_level("DEBUG")
    client = Client(REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR=NEIGHBOUR)
    form = {"handle": "hanako", "password": "plum-blossom-417"}
    assert client.post("/account/signup/password/", form).status_code == 302
    client.get("/account/welcome/")
    client.post("/account/code/")
    client.post("/account/export/")
    client.post("/account/signout/")
    client.post("/account/signin/password/", {"username": "hanako", "password": "wrong"})
    signin = {"username": "hanako", "password": "plum-blossom-417"}
    assert client.post("/account/signin/password/", signin).status_code == 302
    assert DeviceSession.objects.count() == 1

    dump = database_dump()
    assert "players_devicesession" in dump and "hanako" in dump
    assert CLIENT not in dump and NEIGHBOUR not in dump and "127.45." not in dump
    assert "127.45." not in caplog.text
