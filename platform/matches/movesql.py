"""The move path's SQL, built by hand once per database vendor from the models' metadata:
read seats, update the match, append a log row (PostgreSQL: the update and the insert in
one round trip).
The ORM's query building was most of a move's cost (4.6 ms → 0.9 ms for `submit_action`).

Every value goes through the field's own `get_db_prep_save` and every column read through
the backend's and the field's converters, then `Model.from_db`, so what is stored and read
is what the ORM would store and read. That leans on Django internals (`_meta`, `get_col`,
`get_db_converters`, `from_db`); tests/matches/test_movesql.py compares every statement
here with the ORM's own and fails when a Django upgrade or a model change parts them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

from matches.models import Action, Match, Seat


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _sql(vendor: str, name: str, fields: tuple[str, ...] = ()) -> str:
    """The statement `name` for this database vendor (built once)."""
    match_table, seat_table, action_table = (_q(m._meta.db_table) for m in (Match, Seat, Action))
    if name == "seats":
        columns = ", ".join(_q(f.column) for f in Seat._meta.concrete_fields)
        match_column = _q(Seat._meta.get_field("match").column)
        return (
            f"SELECT {columns} FROM {seat_table} WHERE {match_column} = %s ORDER BY {_q('index')}"
        )
    if name == "update":
        sets = ", ".join(f"{_q(Match._meta.get_field(f).column)} = %s" for f in fields)
        return f"UPDATE {match_table} SET {sets} WHERE {_q('id')} = %s"
    if name == "insert":
        columns = ", ".join(_q(Action._meta.get_field(f).column) for f in fields)
        return f"INSERT INTO {action_table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    raise ValueError(name)


def _db() -> Any:
    """This thread's connection itself: each use of the `connection` proxy looks it up
    again (an asgiref Local), which was a tenth of the move path's own CPU."""
    return connections[DEFAULT_DB_ALIAS]


def _prep(model: type[Model], instance: Model, attname: str, connection: Any) -> Any:
    field = model._meta.get_field(attname)
    return field.get_db_prep_save(getattr(instance, field.attname), connection)


def _match_pk(match_id: Any, connection: Any) -> Any:
    field = Match._meta.pk
    return field.get_db_prep_value(field.to_python(match_id), connection)


@cache
def _seat_reader(vendor: str) -> tuple[list[str], list[tuple[Any, list[Any]]]]:
    fields = Seat._meta.concrete_fields
    columns = []
    for field in fields:
        column = field.get_col(Seat._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        columns.append((column, converters))
    return [f.attname for f in fields], columns


def read_seats(match_id: Any) -> list[Seat]:
    """The match's seats, fresh from the database, in index order."""
    connection = _db()
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "seats"), [_match_pk(match_id, connection)])
        return _seats(cursor.fetchall())


def _seats(rows: list[tuple[Any, ...]]) -> list[Seat]:
    connection = _db()
    attnames, columns = _seat_reader(connection.vendor)
    found = []
    for row in rows:
        values = []
        for value, (column, converters) in zip(row, columns, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            values.append(value)
        found.append(Seat.from_db(connection.alias, attnames, values))
    return found


def update_match(match: Match, fields: Iterable[str]) -> None:
    connection = _db()
    fields = tuple(fields)
    params = [_prep(Match, match, f, connection) for f in fields] + [
        _match_pk(match.pk, connection)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "update", fields), params)


ACTION_FIELDS = (
    "match", "seq", "kind", "seat", "action", "events", "actor", "client_action_id", "created",
)  # fmt: skip


def insert_action(row: Action) -> None:
    """Append a log row. The (match, seq) and (match, client_action_id) constraints hold."""
    connection = _db()
    params = [_prep(Action, row, f, connection) for f in ACTION_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "insert", ACTION_FIELDS), params)


def update_match_and_insert(match: Match, fields: Iterable[str], row: Action) -> None:
    """`update_match` then `insert_action`; on PostgreSQL in one round trip (Django's psycopg
    cursors bind parameters on the client, so two statements can go in one execute)."""
    connection = _db()
    fields = tuple(fields)
    if connection.vendor != "postgresql":
        update_match(match, fields)
        insert_action(row)
        return
    params = [_prep(Match, match, f, connection) for f in fields] + [
        _match_pk(match.pk, connection)
    ]
    params += [_prep(Action, row, f, connection) for f in ACTION_FIELDS]
    vendor = connection.vendor
    sql = f"{_sql(vendor, 'update', fields)}; {_sql(vendor, 'insert', ACTION_FIELDS)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
