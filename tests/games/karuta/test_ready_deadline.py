"""The memorisation time has an end on the server too: a seat that has not said "ready" by
the time plus READY_GRACE_MS (counted from the phase's start by the actions' stamps) is made
ready by the server, so a page that stopped or a "ready" that was lost holds nobody for
ever. The engine part on its own, then the match server on an injected clock (nothing here
sleeps)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import gamekit
from games.karuta import engine
from matches import services
from matches.models import Action
from tests.matches.helpers import load

SETTINGS = {"mode": "competitive", "memorise_seconds": 60, "cpu_level": "nyumon", "poem_set": 1}
LIMIT = 60_000 + engine.READY_GRACE_MS
READY = {"type": "ready"}


@pytest.fixture
def game():
    return gamekit.registry.get("karuta")


def stamped(action, decided):
    """`action` decided `decided` ms after the state it is applied to began."""
    stamp = {"arrival": decided, "decided": decided, "owd": None, "jitter": None}
    return {**action, gamekit.STAMP: {**stamp, "server": True}}


def test_the_deadline_counts_from_the_phase_start_across_the_states(game):
    s = engine.new_state(SETTINGS, [{"is_cpu": False}, {"is_cpu": True}], seed=7)
    assert game.deadline(s, 0) == (LIMIT, READY) == game.deadline(s, 1)
    s, _ = engine.apply(s, 0, stamped({"type": "arrange", "rows": s["sides"][0]}, 400))
    s, _ = engine.apply(s, 1, stamped(READY, 1000))  # the CPU, 1.4 s into the phase
    assert game.deadline(s, 1) is None  # ready already
    assert game.deadline(s, 0) == (LIMIT - 1400, READY)
    s, _ = engine.apply(s, 0, stamped(READY, 2000))
    assert s["phase"] == "reading" and "memorise_ms" not in s
    assert game.deadline(s, 0)[1] == {"type": "pass"}  # the reading's own deadline now
    # Unstamped actions (engine tests, old logs) do not move the clock.
    t = engine.new_state(SETTINGS, [{"is_cpu": False}, {"is_cpu": True}], seed=7)
    t, _ = engine.apply(t, 1, READY)
    assert game.deadline(t, 0) == (LIMIT, READY)


@pytest.mark.django_db(transaction=True)
def test_the_server_makes_a_present_player_ready_once_the_time_and_grace_are_over(monkeypatch):
    """Against the CPU, the player's page never says "ready" (lost, or the page stopped while
    its socket stays): the CPU is ready at once, and the server plays the player's "ready"
    (a system move) 60 s + the grace after the start, not before. It waited for ever."""
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    match, _token = services.create_match("karuta", SETTINGS, "cpu", "nyumon")
    services.presence(match.id, [0], +1)
    start = now[0]
    for _ in range(5):  # the CPU's ready, paced
        match, state = load(match.id)
        if 1 not in engine.to_act(state):
            break
        now[0] = max(now[0], match.due_at)
        services.advance(match.id)
    match, state = load(match.id)
    assert state["phase"] == "memorise" and engine.to_act(state) == (0,)
    assert match.due_at is not None
    assert abs((match.due_at - start - timedelta(milliseconds=LIMIT)).total_seconds()) < 0.002
    # The player's socket stays open: its server renews the seat's lease every 2 s.
    while now[0] < match.due_at - timedelta(seconds=2):
        now[0] += timedelta(seconds=2)
        services.renew_leases({str(match.id): [0]})
    now[0] = match.due_at - timedelta(milliseconds=5)
    assert services.advance(match.id) is None  # not before
    now[0] = match.due_at
    seq = services.advance(match.id)
    row = Action.objects.get(match=match, seq=seq)
    assert (row.seat, row.actor, row.action["type"]) == (0, Action.Actor.SYSTEM, "ready")
    match, state = load(match.id)
    assert state["phase"] == "reading"
