"""Presence's SQL, built by hand once per database vendor from the models' metadata, as
movesql.py builds the move path's: lock and read the match row, move the seats a socket
holds in one UPDATE, read the seats back (on PostgreSQL the three in one round trip), and
the recent log rows when this process has no snapshot at the match's seq. The
ORM's query building was most of a socket's open or close (the locked read, the seats'
read, one `save()` per seat: 1.5-1.9 ms of CPU a call on SQLite, bench/bench_presence.py).

Every value goes through the field's own `get_db_prep_save` and every column read through
the backend's and the field's converters, then `Model.from_db`, so what is stored and read
is what the ORM would store and read; tests/matches/test_presencesql.py compares each
with the ORM and fails when a Django upgrade or a model change parts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from matches.errors import MatchError
from matches.models import Action, Match, Seat
from matches.movesql import db, decode, match_pk, reader


@cache
def _sql(vendor: str, arriving: bool, count: int) -> tuple[str, str, str]:
    """The match row under its lock (`log.lock_match`'s `select_for_update`); the UPDATE of
    the human seats among `count` indices; the match's seats in index order."""
    connection = db()
    q = connection.ops.quote_name
    lock = f"SELECT {reader(vendor, Match)[0]} FROM {q(Match._meta.db_table)} WHERE "
    lock += f"{q(Match._meta.pk.column)} = %s"
    if connection.features.has_select_for_update:  # SQLite: IMMEDIATE transactions instead
        lock += f" {connection.ops.for_update_sql()}"
    col = {f.name: q(f.column) for f in Seat._meta.concrete_fields}
    # Every SET expression reads the row as it was (SQL evaluates all before assigning).
    conns = col["connections"]
    counted = f"CASE WHEN {conns} + %s > 0 THEN {conns} + %s ELSE 0 END"  # max(0, n + delta)
    sets = [f"{conns} = {counted}", f"{col['last_seen']} = %s"]
    if arriving:  # back with the token: the disconnect clock ends
        sets += [f"{col['disconnected_since']} = NULL", f"{col['away_ms']} = %s"]
    else:  # gone once the count reaches 0
        since = col["disconnected_since"]
        sets.append(f"{since} = CASE WHEN {conns} + %s > 0 THEN {since} ELSE %s END")
    table = q(Seat._meta.db_table)
    move = (
        f"UPDATE {table} SET {', '.join(sets)} "
        f"WHERE {col['match']} = %s AND {col['index']} IN ({', '.join(['%s'] * count)}) "
        f"AND {col['kind']} <> %s"
    )
    seats = f"SELECT {reader(vendor, Seat)[0]} FROM {table} WHERE {col['match']} = %s "
    seats += f"ORDER BY {col['index']}"
    return lock, move, seats


def lock_and_move(
    match_id: Any, indices: Sequence[int], delta: int, now: datetime
) -> tuple[Match, list[Seat]]:
    """Lock and read the match, move the seats a socket holds, read the seats back.

    A socket opened (delta > 0) or closed: each human seat among `indices` has its
    `connections` moved by delta (never below 0) and `last_seen` set to now; an arrival
    ends the disconnect clock (`disconnected_since` None, `away_ms` 0), a departure that
    leaves no connection starts it (`disconnected_since` now). CPU seats are left alone.
    On PostgreSQL the three statements go in one round trip: Django's psycopg cursors bind
    parameters on the client, so one execute may hold several (server-side binding would
    refuse it, loudly: the tests' PostgreSQL pass runs this)."""
    connection = db()
    meta = Seat._meta

    def prep(name: str, value: Any) -> Any:
        return meta.get_field(name).get_db_prep_save(value, connection)

    try:
        pk = match_pk(match_id, connection)
    except Exception:
        raise MatchError("not_found") from None
    arriving = delta > 0
    moved = [delta, delta, prep("last_seen", now)]
    moved += [prep("away_ms", 0)] if arriving else [delta, prep("disconnected_since", now)]
    moved += [pk, *(prep("index", i) for i in indices), prep("kind", Seat.Kind.CPU)]
    lock, move, seats = _sql(connection.vendor, arriving, len(indices))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"{lock}; {move}; {seats}", [pk, *moved, pk])
            match_rows = cursor.fetchall()
            cursor.nextset()
            cursor.nextset()
        else:
            cursor.execute(lock, [pk])
            match_rows = cursor.fetchall()
            if match_rows:
                cursor.execute(move, moved)
                cursor.execute(seats, [pk])
        if not match_rows:
            raise MatchError("not_found")
        seat_rows = cursor.fetchall()
    return decode(Match, match_rows)[0], decode(Seat, seat_rows)


@cache
def _rows_sql(vendor: str) -> str:
    q = db().ops.quote_name
    match, seq = (q(Action._meta.get_field(f).column) for f in ("match", "seq"))
    return (
        f"SELECT {reader(vendor, Action)[0]} FROM {q(Action._meta.db_table)} "
        f"WHERE {match} = %s AND {seq} > %s AND {seq} <= %s ORDER BY {seq}"
    )


def recent_rows(match: Match, keep: int) -> list[Action]:
    """The match's last `keep` log rows up to its seq, in order (`snapshots.read`'s rows, for
    a socket that finds no snapshot at the seq: the first to open after a room change)."""
    connection = db()
    field = Action._meta.get_field("seq")
    low, high = (
        field.get_db_prep_value(n, connection) for n in (max(0, match.seq - keep), match.seq)
    )
    pk = match_pk(match.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(_rows_sql(connection.vendor), [pk, low, high])
        return decode(Action, cursor.fetchall())
