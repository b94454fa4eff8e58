"""The CPU is planned outside the match row's lock (issue 25, matches/cpu.py): no policy
runs inside a transaction, a plan is made while another connection holds the row, and a
planned move is still applied at most once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

import gamekit
from matches import cpu, services
from matches.models import Action, Match
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


@pytest.mark.services
def test_a_cpu_plan_does_not_wait_for_the_row_lock_and_is_applied_once(policy_calls):
    """Another connection holds the match row (SELECT … FOR UPDATE): the CPU's move is
    planned meanwhile, and played (once) only when the lock is let go."""
    need_services()
    _calls, hooks = policy_calls
    match, _token = create(mode="cpu", players=2, turns=4)
    applied = services.submit_action(match.id, [0], {"type": "draw"}, action_id="me")
    held, release = threading.Event(), threading.Event()
    planned_while_held = threading.Event()
    hooks.append(lambda: held.is_set() and not release.is_set() and planned_while_held.set())

    def hold_the_row() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.id)
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
            results.append(services.advance(match.id, expected_seq=applied.seq)),
            connections.close_all(),
        )
    )
    mover.start()
    assert planned_while_held.wait(10), "the CPU was not planned while the row was locked"
    assert Match.objects.get(pk=match.id).seq == applied.seq  # nothing applied yet
    release.set()
    holder.join(10)
    mover.join(10)
    assert results == [applied.seq + 1]
    # The same scheduled move again (another process, a retried task): nothing happens.
    assert services.advance(match.id, expected_seq=applied.seq) is None
    assert Match.objects.get(pk=match.id).seq == applied.seq + 1
