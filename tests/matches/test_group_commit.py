"""Group commit (matches/groupcommit.py): acts handed in together are written in one
transaction, each decided on its own; a failed transaction applies none of them."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, transaction

from matches import services, snapshots
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


async def test_a_lost_fence_in_a_group_writes_nothing_of_its_try_and_takes_no_savepoint():
    """Another writer took the seq this process's memory would write at: that act's try
    writes nothing (the fence refuses without an error), it is decided again on the match
    read afresh and written after the other writer's line, the other match's act commits
    in the same transaction, and no act needed a savepoint."""
    made = [await db(create)(mode="hotseat", turns=20) for _ in range(2)]
    ids = [match.id for match, _token in made]
    seqs = [(await db(snapshots.current)(match_id)).match.seq for match_id in ids]

    def another_writer() -> None:  # a room line, as another process writes one
        Action.objects.create(
            match_id=ids[0], seq=seqs[0] + 1, kind=Action.Kind.ROOM, seat=None,
            action={"type": "note"}, events=[], actor=Action.Actor.SYSTEM,
        )  # fmt: skip
        Match.objects.filter(pk=ids[0]).update(seq=seqs[0] + 1)

    await db(another_writer)()
    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    def submit(*args, **kwargs):
        with transaction.get_connection().execute_wrapper(record):
            return services.submit_action(*args, **kwargs)

    acts = GroupCommit(submit)
    results = await asyncio.gather(
        *(acts.submit(match_id, [0, 1], {"type": "draw"}, action_id="f") for match_id in ids)
    )
    assert [r.seq for r in results] == [seqs[0] + 2, seqs[1] + 1]
    assert not [s for s in statements if "SAVEPOINT" in s.upper()]
    for match_id, seq in zip(ids, (seqs[0] + 2, seqs[1] + 1), strict=True):
        assert await db(human_moves)(match_id) == 1
        assert (await db(Match.objects.get)(pk=match_id)).seq == seq
    rows = Action.objects.filter(match_id=ids[0]).order_by("seq")
    kinds = await db(lambda: list(rows.values_list("seq", "kind")))()
    assert kinds[-2:] == [(seqs[0] + 1, "room"), (seqs[0] + 2, "game")]


async def test_a_move_alone_after_another_writers_line_is_written_after_it_in_one_statement():
    """Outside a group (a group of one act) a move on PostgreSQL is one autocommitted
    statement (on SQLite two, in a transaction): a lost fence there too writes nothing; the
    act is decided again and written after the other writer's line."""
    match, _token = await db(create)(mode="hotseat", turns=20)
    await db(services.presence)(match.id, [0, 1], +1)  # here: no away time to save
    seq = (await db(snapshots.current)(match.id)).match.seq

    def another_writer() -> None:
        Action.objects.create(
            match_id=match.id, seq=seq + 1, kind=Action.Kind.ROOM, seat=None,
            action={"type": "note"}, events=[], actor=Action.Actor.SYSTEM,
        )  # fmt: skip
        Match.objects.filter(pk=match.id).update(seq=seq + 1)

    await db(another_writer)()
    writes: list[tuple[str, bool]] = []  # (statement, in a transaction)

    def alone():
        connection = transaction.get_connection()

        def record(execute, sql, params, many, context):
            if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "WITH")):
                writes.append((sql.split()[0].upper(), connection.in_atomic_block))
            return execute(sql, params, many, context)

        assert not connection.in_atomic_block
        with connection.execute_wrapper(record):
            return services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="a")

    applied = await db(alone)()
    assert applied.seq == seq + 2
    if transaction.get_connection().vendor == "postgresql":
        assert writes == [("WITH", False), ("WITH", False)]  # lost, then written
    else:
        assert writes == [("INSERT", True), ("INSERT", True), ("UPDATE", True)]
    rows = Action.objects.filter(match_id=match.id).order_by("seq")
    kinds = await db(lambda: list(rows.values_list("seq", "kind")))()
    assert kinds[-2:] == [(seq + 1, "room"), (seq + 2, "game")]
    assert (await db(Match.objects.get)(pk=match.id)).seq == seq + 2
