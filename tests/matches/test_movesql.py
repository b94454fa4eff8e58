"""matches.movesql builds the move path's statements by hand from Django's model metadata.
Each is compared here with what the ORM itself stores and reads: these tests fail when a
Django upgrade or a model change parts them (then movesql.py must be looked at again)."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from matches import movesql, services
from matches.models import Action, Match, Seat
from matches.moves import MOVE_FIELDS
from tests.matches.helpers import create

pytestmark = pytest.mark.django_db


def values(instance, skip=("id",)) -> dict:
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.attname not in skip
    }


def test_a_log_row_stores_every_field_of_the_model():
    """A field added to Action and missing here would be left at its database default."""
    concrete = {f.name for f in Action._meta.concrete_fields if not f.primary_key}
    assert set(movesql.ACTION_FIELDS) == concrete


def test_a_log_row_written_here_reads_back_as_the_orms():
    match, _token = create(mode="hotseat", turns=20)
    now = timezone.now()
    kwargs = dict(
        kind=Action.Kind.GAME, seat=1, action={"type": "draw", "n": [1, None, "か"]},
        events=[{"type": "drew", "seat": 1}], actor=Action.Actor.HUMAN, created=now,
    )  # fmt: skip
    target = copy.copy(match)
    with transaction.atomic():
        row = Action(match_id=match.pk, seq=101, client_action_id="a", **kwargs)
        assert movesql.append_and_update(target, MOVE_FIELDS, row)
    Action.objects.create(match_id=match.pk, seq=102, client_action_id="b", **kwargs)
    fast, orm = (Action.objects.get(match=match, seq=n) for n in (101, 102))
    skip = ("id", "seq", "client_action_id", "created")  # auto_now_add: the ORM stamps its own
    assert values(fast, skip) == values(orm, skip)
    assert fast.created == now


def test_the_fence_refuses_a_taken_seq_or_action_id_writing_nothing_and_no_error():
    """A lost fence is no database error: the group's transaction goes on without a
    savepoint (groupcommit.py), and neither the log nor the match row changed."""
    match, _token = create(mode="hotseat", turns=20)
    services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="first")
    stored = Match.objects.get(pk=match.pk)
    taken = Action.objects.get(match=match, seq=stored.seq)
    changed = copy.copy(stored)
    changed.seq, changed.due_at = stored.seq + 5, timezone.now() + timedelta(seconds=9)
    kwargs = dict(
        kind=Action.Kind.GAME, seat=0, action={"type": "draw"}, events=[],
        actor=Action.Actor.HUMAN, created=timezone.now(),
    )  # fmt: skip
    with transaction.atomic():
        for seq, action_id in ((taken.seq, "new"), (taken.seq + 1, "first")):
            row = Action(match_id=match.pk, seq=seq, client_action_id=action_id, **kwargs)
            assert movesql.append_and_update(changed, MOVE_FIELDS, row) is False
        # The transaction is still usable (on PostgreSQL an error would have aborted it).
        assert Action.objects.filter(match=match).count() == taken.seq
    after = Match.objects.get(pk=match.pk)
    assert (after.seq, after.due_at, after.state) == (stored.seq, stored.due_at, stored.state)
    assert Action.objects.get(match=match, seq=taken.seq).client_action_id == "first"


def test_a_match_update_written_here_reads_back_as_the_orms():
    first, _t = create(mode="hotseat", turns=20)
    second, _t = create(mode="hotseat", turns=20)
    services.submit_action(first.id, [0, 1], {"type": "draw"})
    source = Match.objects.get(pk=first.pk)
    source.due_at = timezone.now() + timedelta(seconds=3)
    source.outcome = {"places": [1, 2]}
    for target, write in (
        (second, lambda m: movesql.update_match(m, MOVE_FIELDS)),
        (first, lambda m: m.save(update_fields=list(MOVE_FIELDS))),
    ):
        changed = copy.copy(source)
        changed.pk = changed.id = target.pk
        with transaction.atomic():
            write(changed)
    fast, orm = (Match.objects.get(pk=m.pk) for m in (second, first))
    fields = [f for f in MOVE_FIELDS if f != "updated"]  # auto_now: the ORM stamps its own
    assert {f: getattr(fast, f) for f in fields} == {f: getattr(orm, f) for f in fields}


def test_seats_read_here_equal_the_orms():
    match, _token = create(mode="friend", players=3)
    services.join(match.invite_code)
    services.presence(match.id, [0], +1)
    services.presence(match.id, [1], +1)
    services.presence(match.id, [1], -1)
    orm = [values(s) | {"id": s.id} for s in Seat.objects.filter(match=match).order_by("index")]
    assert [values(s) | {"id": s.id} for s in movesql.read_seats(match.id)] == orm
    assert orm[0]["is_owner"] is True and orm[1]["disconnected_since"] is not None
    assert all(isinstance(s["last_seen"], type(timezone.now())) for s in orm[:2])


def test_seats_read_ahead_are_each_matchs_in_one_query_once_then_read_again(
    django_assert_num_queries,
):
    first, _token = create(mode="friend", players=3)
    second, _token = create(mode="friend", players=2)
    services.join(first.invite_code)

    def orm(match):
        seats = Seat.objects.filter(match=match).order_by("index")
        return [values(s) | {"id": s.id} for s in seats]

    def read(match):
        return [values(s) | {"id": s.id} for s in movesql.read_seats(match.id)]

    expected = {first.id: orm(first), second.id: orm(second)}
    with transaction.atomic(), movesql.seats_read_ahead([first.id, str(second.id), "nonsense"]):
        with django_assert_num_queries(0):
            assert read(second) == expected[second.id]
        Seat.objects.filter(match=first).update(away_ms=1234)  # written after the read ahead
        with django_assert_num_queries(0):
            assert read(first) == expected[first.id]
        # Once: a second read of a match reads it again.
        assert [s.away_ms for s in movesql.read_seats(first.id)] == [1234] * 3
    with django_assert_num_queries(1):
        assert read(second) == expected[second.id]  # after the block: read as usual
