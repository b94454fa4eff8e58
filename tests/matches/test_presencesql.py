"""matches.presencesql builds presence's statements by hand from Django's model metadata.
Each is compared here with what the ORM itself reads and writes (these tests fail when a
Django upgrade or a model change parts them), and `presence.presence` built on them with
the due time the ORM's read of the match computes."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

import gamekit
from matches import presencesql, services, snapshots
from matches.clock import refresh_due
from matches.errors import MatchError
from matches.models import Action, Match, Seat
from tests.matches.helpers import create

pytestmark = pytest.mark.django_db(transaction=True)


def values(instance, skip=("id",)) -> dict:
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.attname not in skip
    }


def test_the_match_and_seats_read_here_equal_the_orms():
    match, _token = create(mode="friend")
    services.join(match.invite_code)  # the match starts: state, turns, due time
    services.submit_action(match.id, [0], {"type": "draw"})
    orm = Match.objects.get(pk=match.pk)
    assert orm.state is not None and orm.turns
    with transaction.atomic():
        locked, seats = presencesql.lock_and_move(str(match.pk), [1], +1, timezone.now())
    assert values(locked, skip=()) == values(orm, skip=())
    assert locked.pk == orm.pk and not locked._state.adding
    orm_seats = Seat.objects.filter(match=match).order_by("index")
    assert [values(s, skip=()) for s in seats] == [values(s, skip=()) for s in orm_seats]


def test_the_recent_log_rows_read_here_equal_the_orms():
    match, _token = create(mode="friend")
    services.join(match.invite_code)
    for _ in range(4):
        services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id=str(uuid.uuid4()))
    match = Match.objects.get(pk=match.pk)
    for keep in (64, 3):
        rows = presencesql.recent_rows(match, keep)
        orm = Action.objects.filter(match=match, seq__gt=match.seq - keep).order_by("seq")
        assert [values(r, skip=()) for r in rows] == [values(r, skip=()) for r in orm]
        assert len(rows) == min(keep, match.seq) and rows[-1].seq == match.seq


def test_a_match_that_is_not_there_is_not_found():
    with pytest.raises(MatchError, match="not_found"), transaction.atomic():
        presencesql.lock_and_move(uuid.uuid4(), [0], +1, timezone.now())


def orm_move_seats(match_id, indices, delta, now) -> None:
    """The rule as the ORM wrote it (presence.presence before presencesql)."""
    for seat in Seat.objects.filter(match_id=match_id).order_by("index"):
        if seat.index not in indices or seat.is_cpu:
            continue
        seat.connections = max(0, seat.connections + delta)
        seat.last_seen = now
        if delta > 0:
            seat.disconnected_since = None
            seat.away_ms = 0
        elif seat.connections == 0:
            seat.disconnected_since = now
        seat.save(update_fields=["connections", "last_seen", "disconnected_since", "away_ms"])


def test_seats_moved_here_equal_the_orms():
    pair, joined = [], timezone.now() - timedelta(minutes=1)
    for _ in range(2):
        match, _token = create(mode="friend", players=3)
        services.join(match.invite_code)
        services.start_with_cpu(match.id, [0])  # seat 2 is the CPU's
        Seat.objects.filter(match=match).update(disconnected_since=joined)  # alike
        # Seat 1: two sockets, yet a disconnect time (a state no path makes, but the
        # statement must leave it as the ORM does) and away time from earlier turns.
        Seat.objects.filter(match=match, index=1).update(away_ms=1234, connections=2)
        pair.append(match)
    start = timezone.now()
    steps = [
        ([1], -1), ([0], +1), ([0, 1], +1), ([0], -1), ([0], -1), ([0], -1),  # 2, 1, 0, and 0 again
        ([1, 2], -1), ([2], +1), ([1], +1), ([0, 1, 2], +1),
    ]  # fmt: skip
    for n, (indices, delta) in enumerate(steps):
        now = start + timedelta(seconds=n, microseconds=n * 1001)
        with transaction.atomic():
            _match, seats = presencesql.lock_and_move(pair[0].pk, indices, delta, now)
        with transaction.atomic():
            orm_move_seats(pair[1].pk, indices, delta, now)
        skip = ("id", "match_id", "token_hash")
        fast, orm = ([values(s, skip) for s in Seat.objects.filter(match=m)] for m in pair)
        assert fast == orm, (indices, delta)
        assert [values(s, skip) for s in seats] == fast  # what it read back is what it wrote
    final = {s.index: s for s in Seat.objects.filter(match=pair[0])}
    assert [final[i].connections for i in range(3)] == [1, 3, 0]  # the CPU's never moved
    assert final[1].away_ms == 0 and final[0].disconnected_since is None


def due_from_the_orm(match_id, now):
    """The due time computed from the match and seats as the ORM reads them."""
    match = Match.objects.get(pk=match_id)
    game = gamekit.registry.get(match.game)
    state = game.load_state(match.state) if match.state is not None else None
    refresh_due(match, game, state, list(Seat.objects.filter(match=match)), now)
    return match.due_at


def test_presence_stores_the_due_time_the_database_gives(monkeypatch):
    match, _token = create(mode="friend")
    services.join(match.invite_code)
    services.presence(match.id, [0, 1], +1)
    services.submit_action(match.id, [0], {"type": "draw"})  # seat 1's turn
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    assert snapshots.peek(match.id).match.seq == Match.objects.get(pk=match.pk).seq
    services.presence(match.id, [1], -1)  # from this process's snapshot at the seq
    left = Match.objects.get(pk=match.pk).due_at
    assert left is not None and left == due_from_the_orm(match.id, now)  # the grace runs
    snapshots.forget(match.id)
    services.presence(match.id, [1], +1)  # no snapshot: read
    assert Match.objects.get(pk=match.pk).due_at == due_from_the_orm(match.id, now) is None
    assert snapshots.peek(match.id).seats[1].connections == 1  # the notice's seats, stored


def test_a_socket_on_a_waiting_room_keeps_it_from_the_abandoned_rooms_purge():
    match, _token = create(mode="friend", players=3)
    Match.objects.filter(pk=match.pk).update(updated=timezone.now() - timedelta(days=2))
    services.presence(match.id, [0], +1)
    assert Match.objects.get(pk=match.pk).updated > timezone.now() - timedelta(minutes=1)


def test_sockets_of_one_match_opening_at_once_with_a_move_all_count():
    # SQLite serialises the writers; run with DATABASE_URL to exercise PostgreSQL's row lock.
    match, _token = create(mode="friend", players=4)
    for _ in range(3):
        services.join(match.invite_code)
    seq = Match.objects.get(pk=match.pk).seq
    errors = []
    barrier = threading.Barrier(5)

    def run(work):
        try:
            barrier.wait()
            work()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    works = [lambda i=i: services.presence(match.id, [i], +1) for i in range(4)]
    works.append(lambda: services.submit_action(match.id, [0], {"type": "draw"}, seat=0))
    threads = [threading.Thread(target=run, args=(w,)) for w in works]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    seats = list(Seat.objects.filter(match=match))
    assert [s.connections for s in seats] == [1, 1, 1, 1]
    assert all(s.disconnected_since is None for s in seats)
    assert Match.objects.get(pk=match.pk).seq == seq + 1  # the move, once; presence adds none
