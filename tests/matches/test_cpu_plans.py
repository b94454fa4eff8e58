"""The CPU is planned outside the match row's lock (issue 25, matches/cpu.py): no policy
runs inside a transaction — not when the snapshot was behind the row, nor for an absent
person's seat — a plan is made while another connection holds the row, and a planned move
is still applied at most once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

import gamekit
from matches import cpu, services, snapshots
from matches.models import Action, Match, Seat
from tests.matches.helpers import create
from tests.matches.test_scaleout import need_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


@pytest.fixture
def policy_calls(monkeypatch):
    """Every CPU policy call of the test game, with whether it ran inside a transaction."""
    game = gamekit.registry.get("hiddenhand")
    calls: list[dict] = []
    real = type(game).cpu_policy

    def watched(self, view, seat, level, rng):
        calls.append({"atomic": connection.in_atomic_block, "thread": threading.get_ident()})
        for event in list(hooks):
            event()
        return real(self, view, seat, level, rng)

    hooks: list = []
    monkeypatch.setattr(type(game), "cpu_policy", watched)
    return calls, hooks


def test_no_cpu_policy_runs_inside_the_move_transaction(policy_calls):
    calls, _hooks = policy_calls
    match, _token = create(mode="cpu", players=3, turns=12)
    for _ in range(80):
        row = Match.objects.get(pk=match.id)
        if row.status != Match.Status.PLAYING:
            break
        if services.advance(match.id) is None:
            services.submit_action(match.id, [0], {"type": "draw"}, action_id=f"m{row.seq}")
    assert Match.objects.get(pk=match.id).status == Match.Status.FINISHED
    cpu_moves = Action.objects.filter(match_id=match.id, actor=Action.Actor.CPU).count()
    assert cpu_moves >= 4 and len(calls) >= cpu_moves  # every CPU move was planned
    assert not [c for c in calls if c["atomic"]]  # every plan was made outside the lock


def held_row_advance(match_id, expected_seq: int, hooks: list) -> list:
    """Another connection holds the match row (SELECT … FOR UPDATE) while `advance` runs on a
    process that has planned nothing (cpu.forget): asserts the plan is made meanwhile and
    nothing applied before the lock is let go; returns what `advance` returned."""
    held, release = threading.Event(), threading.Event()
    planned_while_held = threading.Event()
    hooks.append(lambda: held.is_set() and not release.is_set() and planned_while_held.set())

    def hold_the_row() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match_id)
                held.set()
                release.wait(20)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    assert held.wait(10)
    results: list = []
    cpu.forget()  # as on a process that did not make the last move: advance plans afresh
    mover = threading.Thread(
        target=lambda: (
            results.append(services.advance(match_id, expected_seq=expected_seq)),
            connections.close_all(),
        )
    )
    mover.start()
    assert planned_while_held.wait(10), "the CPU was not planned while the row was locked"
    assert Match.objects.get(pk=match_id).seq == expected_seq  # nothing applied yet
    release.set()
    holder.join(10)
    mover.join(10)
    return results


@pytest.mark.services
def test_a_cpu_plan_does_not_wait_for_the_row_lock_and_is_applied_once(policy_calls):
    """Another connection holds the match row (SELECT … FOR UPDATE): the CPU's move is
    planned meanwhile, and played (once) only when the lock is let go."""
    need_services()
    _calls, hooks = policy_calls
    match, _token = create(mode="cpu", players=2, turns=4)
    applied = services.submit_action(match.id, [0], {"type": "draw"}, action_id="me")
    results = held_row_advance(match.id, applied.seq, hooks)
    assert results == [applied.seq + 1]
    # The same scheduled move again (another process, a retried task): nothing happens.
    assert services.advance(match.id, expected_seq=applied.seq) is None
    assert Match.objects.get(pk=match.id).seq == applied.seq + 1


def test_a_snapshot_behind_the_row_is_read_again_and_planned_outside_the_lock(policy_calls):
    """This process's snapshot missed the last move (another process made it): under the
    lock `advance` finds the row ahead, gives the lock back, reads and plans outside, and
    plays the CPU's move once."""
    calls, _hooks = policy_calls
    match, _token = create(mode="cpu", players=2, turns=4)
    behind = snapshots.current(match.id)  # before the person's move
    applied = services.submit_action(match.id, [0], {"type": "draw"}, action_id="me")
    snapshots.forget(match.id)  # as a process that did not hear of that move has it:
    snapshots.put(behind)  # its memory is the older snapshot
    cpu.forget()  # nor planned after it
    calls.clear()
    assert services.advance(match.id, expected_seq=applied.seq) == applied.seq + 1
    assert calls and not [c for c in calls if c["atomic"]]
    row = Action.objects.get(match_id=match.id, seq=applied.seq + 1)
    assert row.actor == Action.Actor.CPU
    assert services.advance(match.id, expected_seq=applied.seq) is None  # at most once


def test_an_absent_persons_turn_is_planned_outside_the_lock_when_only_the_row_knows(
    policy_calls, settings
):
    """The snapshot counts seat 1 present; the row says its lease ran out long ago (another
    process expired it, its notice lost). Under the lock the fresh seats make seat 1's turn
    due: `advance` gives the lock back, plans it outside, and plays it once."""
    settings.MATCHES_DISCONNECT_GRACE_S = 0
    calls, _hooks = policy_calls
    match, _token = create(mode="friend", players=2, turns=4)
    _m, _seat, _blue = services.join(match.invite_code)
    services.presence(match.id, [0, 1], +1)
    applied = services.submit_action(match.id, [0], {"type": "draw"}, action_id="me")
    assert snapshots.current(match.id).seats[1].connections == 1
    gone = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(match_id=match.id, index=1).update(
        connections=0, disconnected_since=gone, last_seen=gone
    )
    cpu.forget()
    calls.clear()
    assert services.advance(match.id, expected_seq=applied.seq) == applied.seq + 1
    assert calls and not [c for c in calls if c["atomic"]]
    row = Action.objects.get(match_id=match.id, seq=applied.seq + 1)
    assert (row.seat, row.actor) == (1, Action.Actor.TIMEOUT)
    assert services.advance(match.id, expected_seq=applied.seq) is None


@pytest.mark.services
def test_an_absent_persons_turn_is_planned_while_another_connection_holds_the_row(
    policy_calls, settings
):
    """Seat 1's holder is away past the grace: its turn is planned while another connection
    holds the match row, and played (once) when the lock is let go."""
    need_services()
    settings.MATCHES_DISCONNECT_GRACE_S = 0
    _calls, hooks = policy_calls
    match, _token = create(mode="friend", players=2, turns=4)
    services.join(match.invite_code)
    applied = services.submit_action(match.id, [0], {"type": "draw"}, action_id="me")
    results = held_row_advance(match.id, applied.seq, hooks)
    assert results == [applied.seq + 1]
    row = Action.objects.get(match_id=match.id, seq=applied.seq + 1)
    assert (row.seat, row.actor) == (1, Action.Actor.TIMEOUT)
    assert services.advance(match.id, expected_seq=applied.seq) is None
