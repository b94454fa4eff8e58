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
    with transaction.atomic():
        movesql.insert_action(Action(match_id=match.pk, seq=101, client_action_id="a", **kwargs))
    Action.objects.create(match_id=match.pk, seq=102, client_action_id="b", **kwargs)
    fast, orm = (Action.objects.get(match=match, seq=n) for n in (101, 102))
    skip = ("id", "seq", "client_action_id", "created")  # auto_now_add: the ORM stamps its own
    assert values(fast, skip) == values(orm, skip)
    assert fast.created == now


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
