"""Karuta's 45 s rule (issue 26): the CPU plays for an absent friend 45 s after they went
away, whatever the readings do (a seat leaves to_act between readings and at every send,
which restarted its turn clock), and the room says so with one steady countdown. On an
injected clock with the real 45 s grace: nothing here sleeps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import gamekit
from matches import frames, services
from matches.models import Action, Match
from tests.matches.helpers import load

pytestmark = pytest.mark.django_db(transaction=True)

GRACE = timedelta(seconds=45)


@pytest.fixture
def clock(monkeypatch, settings):
    settings.MATCHES_DISCONNECT_GRACE_S = 45
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


def friend_room(mode: str):
    match, _token = services.create_match(
        "karuta", {"mode": mode, "players": 2, "memorise_seconds": 0}, "friend"
    )
    services.join(match.invite_code)
    for seat in (0, 1):
        services.presence(match.id, [seat], +1)
    return match


def cpu_in_ms(match_id) -> int | None:
    frame = frames.build_frame(match_id, frames.Viewer.of([0]), None, fresh=True)
    return frame.match["seats"][1]["cpu_in_ms"]


@pytest.mark.parametrize("mode", ["chirashi", "competitive"])
def test_the_cpu_plays_for_an_absent_friend_45_s_after_the_drop(clock, mode):
    """Red stays and lets every reading run to its close (sending when asked); blue drops.
    Readings and sends come and go; the countdown red sees always points at the same moment.
    Until then the judge passes blue at each close (a system move); from then on the CPU
    plays blue (timeout moves), never before. (The CPU standing in is the first level,
    which often finds a card only after the close: then the judge still passes it.)"""
    game = gamekit.registry.get("karuta")
    match = friend_room(mode)
    services.presence(match.id, [1], -1)
    dropped = clock[0]
    first_cpu = None
    readings = set()
    for _ in range(2000):
        match, state = load(match.id)
        if match.status != Match.Status.PLAYING or first_cpu is not None:
            break
        left = cpu_in_ms(match.id)
        # One steady countdown: now + what is left is always the drop + 45 s (to the ms).
        target = clock[0] + timedelta(milliseconds=left)
        assert left == 0 or abs((target - dropped - GRACE).total_seconds()) < 0.002, left
        if state["phase"] == "reading":
            readings.add(state["reading"]["number"])
        if 0 in game.to_act(state) and state["phase"] == "send":
            card = next(a for a in game.legal_actions(state, 0) if a["type"] == "send")
            services.submit_action(match.id, [0], card)
            continue
        # Red waits: the server's next move (blue's pass or touch, red's pass at the close).
        assert match.due_at is not None
        clock[0] = max(clock[0], match.due_at)
        seq = services.advance(match.id)
        row = Action.objects.get(match=match, seq=seq) if seq else None
        if row and row.seat == 1 and row.actor == Action.Actor.TIMEOUT:
            first_cpu = clock[0]
        elif row and row.seat == 1:
            assert row.actor == Action.Actor.SYSTEM
    assert len(readings) >= 2, "the drop spans readings"
    assert first_cpu is not None and first_cpu >= dropped + GRACE


def test_a_new_reading_does_not_restart_the_absent_clock(clock):
    """The case that made the countdown start again (19 s, 14 s, …): blue's turn clock began
    anew 30 s after the drop (a new reading, after blue had been passed). The CPU still
    takes over 45 s after the drop, not 45 s after that reading began."""
    match = friend_room("chirashi")
    services.presence(match.id, [1], -1)
    dropped = clock[0]
    row = Match.objects.get(pk=match.id)
    later = int((dropped + timedelta(seconds=30)).timestamp() * 1000)
    Match.objects.filter(pk=match.id).update(turns={**row.turns, "1": later})
    clock[0] = dropped + timedelta(seconds=31)
    assert cpu_in_ms(match.id) == 14_000
    clock[0] = dropped + timedelta(seconds=44)
    assert cpu_in_ms(match.id) == 1_000
    services.presence(match.id, [1], +1)  # back with the token: no countdown
    assert cpu_in_ms(match.id) is None


def test_the_frame_carries_the_takeover_moment_on_the_servers_clock(clock):
    """The page counts down to `cpu_at` (server epoch ms) on its estimate of the server's
    clock: the same moment in every frame, whenever the frame was made, so a held or late
    frame shows the same seconds; `cpu_in_ms` is what is left when the frame was made."""
    match = friend_room("chirashi")

    def seat_one():
        frame = frames.build_frame(match.id, frames.Viewer.of([0]), None, fresh=True)
        return frame.match["seats"][1]

    assert seat_one()["cpu_at"] is None  # here: no countdown
    services.presence(match.id, [1], -1)
    dropped = clock[0]
    due = int((dropped + GRACE).timestamp() * 1000)
    for later in (1, 20, 44):
        clock[0] = dropped + timedelta(seconds=later)
        seat = seat_one()
        assert seat["cpu_at"] == due
        assert seat["cpu_in_ms"] == (45 - later) * 1000
    services.presence(match.id, [1], +1)
    assert seat_one()["cpu_at"] is None
