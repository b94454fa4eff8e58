"""Group commit (matches/groupcommit.py): acts handed in together are written in one
transaction, each decided on its own; a failed transaction applies none of them."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, transaction

from matches import services
from matches.errors import MatchError
from matches.groupcommit import GroupCommit
from matches.models import Action, Match
from tests.matches.helpers import create

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]

db = database_sync_to_async


def human_moves(match_id) -> int:
    return Action.objects.filter(match_id=match_id, actor="human").count()


async def test_acts_of_one_turn_share_a_transaction_and_a_refusal_stays_its_own():
    made = [await db(create)(mode="cpu") for _ in range(4)]
    ids = [match.id for match, _token in made]
    seqs = [match.seq for match, _token in made]
    outer: list[object] = []  # each act's outermost transaction, as the database thread saw it

    def submit(*args, **kwargs):
        connection = transaction.get_connection()
        outer.append(connection.atomic_blocks[0] if connection.atomic_blocks else None)
        return services.submit_action(*args, **kwargs)

    acts = GroupCommit(submit)
    draw = {"type": "draw"}
    results = await asyncio.gather(
        *(
            acts.submit(match_id, [0], draw, action_id=f"g{i}", expected_seq=seq)
            for i, (match_id, seq) in enumerate(zip(ids[:3], seqs, strict=False))
        ),
        acts.submit(ids[3], [0], draw, action_id="wrong", expected_seq=seqs[3] + 5),
        acts.submit(ids[0], [0], draw, action_id="late", expected_seq=seqs[0]),
        return_exceptions=True,
    )
    # One transaction for the four matches (one act refused in it: stale); the second act
    # on the first match waits for the next, where it is decided on the committed move.
    first, later = outer[:4], outer[4:]
    assert len(later) == 1 and first[0] is not None and all(t is first[0] for t in first)
    assert later[0] is not first[0]
    assert [r.seq for r in results[:3]] == [seq + 1 for seq in seqs[:3]]
    assert isinstance(results[3], MatchError) and results[3].code == "stale"
    assert isinstance(results[4], MatchError) and results[4].code == "stale"
    assert await db(human_moves)(ids[3]) == 0
    for match_id, seq in zip(ids[:3], seqs, strict=False):
        assert await db(human_moves)(match_id) == 1
        assert (await db(Match.objects.get)(pk=match_id)).seq == seq + 1


async def test_a_broken_transaction_applies_no_act_of_its_group():
    made = [await db(create)(mode="cpu") for _ in range(2)]
    ids = [match.id for match, _token in made]
    broken = str(ids[1])

    def submit(match_id, *args, **kwargs):
        applied = services.submit_action(match_id, *args, **kwargs)
        if str(match_id) == broken:  # written, then the database fails before the commit
            raise OperationalError("connection lost")
        return applied

    acts = GroupCommit(submit)
    results = await asyncio.gather(
        *(acts.submit(match_id, [0], {"type": "draw"}, action_id="b") for match_id in ids),
        return_exceptions=True,
    )
    assert all(isinstance(r, OperationalError) for r in results), results
    for match_id in ids:
        assert await db(human_moves)(match_id) == 0
    # The next group writes normally.
    again = await acts.submit(ids[0], [0], {"type": "draw"}, action_id="b")
    assert again.seq == made[0][0].seq + 1
    assert await db(human_moves)(ids[0]) == 1
