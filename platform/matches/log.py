"""The match log: lock a match, read its seats, append a line, replay from the seed, and
the move path's hand-built SQL (below; the ORM's query building was most of a move's cost).

The log is the truth: `replay(match)` rebuilds the state from the seed and the log lines.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

import gamekit
from gamekit import Game, SeatSpec
from gamekit import events as game_events
from matches.errors import MatchError
from matches.models import Action, Match, Seat

log = logging.getLogger(__name__)


def get_game(match: Match) -> Game:
    return gamekit.registry.get(match.game)


def lock_match(match_id: Any) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("not_found") from None


def seats_of(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).order_by("index"))


def append_row(
    match: Match,
    *,
    kind: str,
    seat: int | None,
    action: Mapping[str, Any],
    events: list[dict[str, Any]],
    actor: str,
    action_id: str | None = None,
) -> Action:
    match.seq += 1
    return Action.objects.create(
        match=match,
        seq=match.seq,
        kind=kind,
        seat=seat,
        action=dict(action),
        events=events,
        actor=actor,
        client_action_id=action_id,
    )


def save_away(seats: Iterable[Seat]) -> None:
    """Save the away time `clock.update_turns` added to these seats."""
    for seat in seats:
        Seat.objects.filter(pk=seat.pk).update(away_ms=seat.away_ms)


@dataclass(frozen=True)
class Step:
    """One log line replayed: its kind ("game", or the room line's type: "start", "out",
    "join" …), the state after it (None before the start) and the engine's events it caused
    (encoded; none for a room line the engine does not see)."""

    row: Action
    kind: str
    state: Any
    events: list[dict[str, Any]]


def replay_steps(match: Match, rows: Iterable[Action] | None = None) -> Iterator[Step]:
    """The log replayed from the seed, line by line: the one replay (records, tests and
    `replay` all walk it). A start builds the state, a game line applies, a player put out
    is removed; other room lines leave it."""
    game = get_game(match)
    state = None
    for row in match.actions.order_by("seq") if rows is None else rows:
        kind = "game" if row.kind == Action.Kind.GAME else row.action.get("type", "")
        events: list[Any] = []
        if kind == "start":
            specs = [SeatSpec(**spec) for spec in row.action["seats"]]
            state = game.new_state(match.settings, specs, match.seed)
        elif kind == "game":
            state, events = game.apply(state, row.seat, row.action)
        elif kind == "out":
            state, events = game.remove_seat(state, row.seat)
        yield Step(row, kind, state, game_events.encode(events))


def replay(match: Match) -> Any:
    """The state reached by replaying the log from the seed (None before the start)."""
    state = None
    for step in replay_steps(match):
        state = step.state
    return state


# --- the move path's SQL (was store.py) ---------------------------------------------


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _sql(vendor: str, name: str, fields: tuple[str, ...] = ()) -> str:
    """The statement `name` for this database vendor (built once)."""
    match_table, seat_table, action_table = (_q(m._meta.db_table) for m in (Match, Seat, Action))
    if name == "lock":
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        return f"SELECT {_q('seq')} FROM {match_table} WHERE {_q('id')} = %s{lock}"
    if name == "seats":
        columns = ", ".join(_q(f.column) for f in Seat._meta.concrete_fields)
        match_column = _q(Seat._meta.get_field("match").column)
        return (
            f"SELECT {columns} FROM {seat_table} WHERE {match_column} = %s ORDER BY {_q('index')}"
        )
    if name == "lock_seats":
        # The match row locked (only it: presence updates seats under the match's lock) and
        # its seats, in one round trip.
        columns = ", ".join(f"s.{_q(f.column)}" for f in Seat._meta.concrete_fields)
        match_column = _q(Seat._meta.get_field("match").column)
        lock = ""
        if connection.features.has_select_for_update:
            lock = " FOR UPDATE OF m" if connection.features.has_select_for_update_of else ""
        return (
            f"SELECT m.{_q('seq')}, {columns} FROM {match_table} m JOIN {seat_table} s "
            f"ON s.{match_column} = m.{_q('id')} WHERE m.{_q('id')} = %s "
            f"ORDER BY s.{_q('index')}{lock}"
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


def lock_seq(match_id: Any) -> int | None:
    """Lock the match row for this transaction; its seq (None if there is no such match)."""
    connection = _db()
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "lock"), [_match_pk(match_id, connection)])
        row = cursor.fetchone()
    return None if row is None else row[0]


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


def lock_seq_and_seats(match_id: Any) -> tuple[int | None, list[Seat]]:
    """`lock_seq` and `read_seats` in one statement: the match row locked for this
    transaction, its seq (None if there is no such match) and its seats, fresh."""
    connection = _db()
    if (
        not connection.features.has_select_for_update_of
        and connection.features.has_select_for_update
    ):
        return lock_seq(match_id), read_seats(match_id)  # cannot lock only the match row
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor, "lock_seats"), [_match_pk(match_id, connection)])
        rows = cursor.fetchall()
    if not rows:
        return lock_seq(match_id), []  # no such match (or, never, a match without seats)
    return rows[0][0], _seats([row[1:] for row in rows])


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
