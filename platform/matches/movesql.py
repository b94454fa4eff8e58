"""The move path's SQL, built by hand once per database vendor from the models' metadata:
read seats, update the match, append a log row unless its seq is taken (the fence; on
PostgreSQL the append and the update in one statement).
The ORM's query building was most of a move's cost (4.6 ms → 0.9 ms for `submit_action`).

Every value goes through the field's own `get_db_prep_save` and every column read through
the backend's and the field's converters, then `Model.from_db`, so what is stored and read
is what the ORM would store and read. That leans on Django internals (`_meta`, `get_col`,
`get_db_converters`, `from_db`); tests/matches/test_movesql.py compares every statement
here with the ORM's own and fails when a Django upgrade or a model change parts them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

from matches.models import Action, Match, Seat


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _sql(vendor: str, name: str, fields: tuple[str, ...] = ()) -> str:
    """The statement `name` for this database vendor (built once)."""
    match_table, seat_table, action_table = (_q(m._meta.db_table) for m in (Match, Seat, Action))
    if name in ("seats", "seats_in"):  # seats_in: of len(fields) matches
        columns = ", ".join(_q(f.column) for f in Seat._meta.concrete_fields)
        match_column = _q(Seat._meta.get_field("match").column)
        which = "= %s" if name == "seats" else f"IN ({', '.join(['%s'] * len(fields))})"
        return (
            f"SELECT {columns} FROM {seat_table} WHERE {match_column} {which} "
            f"ORDER BY {_q('index')}"
        )
    if name == "update":
        sets = ", ".join(f"{_q(Match._meta.get_field(f).column)} = %s" for f in fields)
        return f"UPDATE {match_table} SET {sets} WHERE {_q('id')} = %s"
    if name == "insert":
        columns = ", ".join(_q(Action._meta.get_field(f).column) for f in fields)
        return f"INSERT INTO {action_table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    if name == "append":  # the log row, unless its seq or action id is taken (then 0 rows)
        return f"{_sql(vendor, 'insert', ACTION_FIELDS)} ON CONFLICT DO NOTHING"
    if name == "append_and_update":  # PostgreSQL: the update only if the row went in
        return (
            f"WITH appended AS ({_sql(vendor, 'append')} RETURNING 1) "
            f"{_sql(vendor, 'update', fields)} AND EXISTS (SELECT 1 FROM appended)"
        )
    raise ValueError(name)


def db() -> Any:
    """This thread's connection itself: each use of the `connection` proxy looks it up
    again (an asgiref Local), which was a tenth of the move path's own CPU."""
    return connections[DEFAULT_DB_ALIAS]


def _prep(model: type[Model], instance: Model, attname: str, connection: Any) -> Any:
    field = model._meta.get_field(attname)
    return field.get_db_prep_save(getattr(instance, field.attname), connection)


def match_pk(match_id: Any, connection: Any) -> Any:
    field = Match._meta.pk
    return field.get_db_prep_value(field.to_python(match_id), connection)


@cache
def reader(vendor: str, model: type[Model]) -> tuple[str, list[str], list[tuple[Any, list]]]:
    """Every column of `model`'s table, for this vendor: the SELECT list, the attribute
    names and each column's converters (the backend's, then the field's)."""
    connection = db()
    fields = model._meta.concrete_fields
    columns = []
    for field in fields:
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        columns.append((column, found))
    select = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    return select, [f.attname for f in fields], columns


def decode(model: type[Model], rows: list[tuple[Any, ...]]) -> list[Any]:
    """Rows of `reader`'s columns as model instances, converted as the ORM converts them."""
    connection = db()
    _select, attnames, columns = reader(connection.vendor, model)
    found = []
    for row in rows:
        values = []
        for value, (column, converters) in zip(row, columns, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            values.append(value)
        found.append(model.from_db(connection.alias, attnames, values))
    return found


def read_seats(match_id: Any) -> list[Seat]:
    """The match's seats, fresh from the database, in index order (read with the group's
    other matches', if `seats_read_ahead` read them, and not read since)."""
    connection = db()
    ahead = getattr(_ahead, "seats", None)
    if ahead:
        seats = ahead.pop(_key(match_id), None)
        if seats is not None:
            return seats
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "seats"), [match_pk(match_id, connection)])
        return decode(Seat, cursor.fetchall())


_ahead = threading.local()  # per database thread: the seats read ahead for its group


@contextmanager
def seats_read_ahead(match_ids: Iterable[Any]) -> Iterator[None]:
    """Within: the seats of these matches, read in one query now, are what `read_seats`
    returns for each, once (a second call reads again). A group commit's moves each read
    their match's seats before their write (groupcommit.py): one round trip for the group
    rather than one per move, each as fresh as at the group's start. No lock is taken
    either way: a presence change committed meanwhile could be missed by a read just before
    the write too, and a seat handed to the CPU writes a log row, so the move's fence
    (its seq taken) notices it whenever it was read."""
    connection = db()
    keys = {}
    for match_id in match_ids:
        try:
            keys[_key(match_id)] = match_pk(match_id, connection)
        except (TypeError, ValueError, ValidationError):
            continue  # not a match id: its act refuses it, reading nothing
    ahead: dict[str, list[Seat]] = {key: [] for key in keys}
    if len(keys) > 1:
        with connection.cursor() as cursor:
            statement = _sql(connection.vendor, "seats_in", ("%s",) * len(keys))  # by count
            cursor.execute(statement, list(keys.values()))
            for seat in decode(Seat, cursor.fetchall()):
                ahead[_key(seat.match_id)].append(seat)
        _ahead.seats = ahead
    try:
        yield
    finally:
        _ahead.seats = None


def _key(match_id: Any) -> str:
    return str(Match._meta.pk.to_python(match_id))


def update_match(match: Match, fields: Iterable[str]) -> None:
    connection = db()
    fields = tuple(fields)
    params = [_prep(Match, match, f, connection) for f in fields] + [match_pk(match.pk, connection)]
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "update", fields), params)


ACTION_FIELDS = (
    "match", "seq", "kind", "seat", "action", "events", "actor", "client_action_id", "created",
)  # fmt: skip


def append_and_update(match: Match, fields: Iterable[str], row: Action) -> bool:
    """Append the log row, then update the match, unless the log already holds the row's seq
    (or its action id): then nothing is written and it returns False. The fence is decided
    by the database (the log's unique constraints, `ON CONFLICT DO NOTHING`) without an
    error, so the caller's transaction stays usable and needs no savepoint to undo a lost
    fence (groupcommit.py). On PostgreSQL one statement, one round trip (the insert a
    data-modifying CTE the update depends on); on SQLite two, the update only if the row
    went in."""
    connection = db()
    fields = tuple(fields)
    vendor = connection.vendor
    inserted = [_prep(Action, row, f, connection) for f in ACTION_FIELDS]
    updated = [_prep(Match, match, f, connection) for f in fields]
    pk = match_pk(match.pk, connection)
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute(_sql(vendor, "append_and_update", fields), [*inserted, *updated, pk])
            return cursor.rowcount == 1
        cursor.execute(_sql(vendor, "append"), inserted)
        if cursor.rowcount != 1:
            return False
        cursor.execute(_sql(vendor, "update", fields), [*updated, pk])
        return True
