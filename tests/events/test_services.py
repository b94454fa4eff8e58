"""Events run through the real match layer: boards are matches made by create_match_for,
results come back through the real finish path (a resignation) and `match_finished`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from events import services
from events.gamechoice import build_settings
from events.models import Board, Entrant, Event, Round
from events.services import EventError
from matches import rooms
from matches.models import Match
from matches.outcome import outcome_of
from ratings.models import Rating
from tests.support.server import database_url

ROOT = Path(__file__).resolve().parents[2]
GAME, SETTINGS = build_settings("karuta-competitive", "20", "0")


def people(*names):
    model = get_user_model()
    return [model.objects.create(username=name) for name in names]


def new_event(organiser, kind=Event.Kind.KNOCKOUT, **extra):
    fields = dict(
        name="club night",
        kind=kind,
        choice="karuta-competitive",
        game=GAME,
        settings=SETTINGS,
        starts_at=timezone.now() - timedelta(seconds=1),
        break_seconds=30,
    )
    fields.update(extra)
    return services.create_event(organiser, **fields)


def finish(board, loser_seat, capture):
    """End a board's match the real way: a seat resigns (commit, then match_finished)."""
    with capture(execute=True):
        rooms.resign(board.match_id, [loser_seat], loser_seat)


def pending(event, number=None):
    boards = Board.objects.filter(event=event, result=Board.Result.PENDING)
    if number is not None:
        boards = boards.filter(round__number=number)
    return list(boards.order_by("position"))


@pytest.mark.django_db
def test_a_four_player_knockout_runs_to_its_champion(django_capture_on_commit_callbacks):
    organiser, *players = people("host", "aoi", "ren", "sou", "yui")
    Rating.objects.create(user=players[2], key="karuta-competitive", rating=1800, deviation=60)
    event = new_event(organiser)
    for p in players:
        services.join(event, p)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_due_rounds(now) == 1
        assert services.start_due_rounds(now) == 0  # once
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    first = pending(event, 1)
    assert len(first) == 2
    # Seed 1 (sou, 1800) is in the top slot and meets seed 4 (the last to enter of the 1500s).
    assert first[0].a.user == players[2] and first[0].b.user == players[3]
    for board in first:
        match = Match.objects.get(pk=board.match_id)
        assert match.rated and match.status == Match.Status.PLAYING
        assert sorted(match.seats.values_list("user_id", flat=True)) == sorted(
            [board.a.user_id, board.b.user_id]
        )
        # Each person's seat token waits for them in the cache, not in the database.
        assert services.take_seat(board, board.a.user_id)
    finish(first[0], 1, django_capture_on_commit_callbacks)  # sou wins
    assert not Round.objects.filter(event=event, number=2).exists()
    finish(first[1], 0, django_capture_on_commit_callbacks)  # the lower slot wins
    second = Round.objects.get(event=event, number=2)
    assert second.due_at == Round.objects.get(event=event, number=1).decided_at + timedelta(
        seconds=30
    )
    assert services.start_due_rounds(second.due_at - timedelta(seconds=1)) == 0  # not yet
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_due_rounds(second.due_at) == 1
    (final,) = pending(event, 2)
    assert {final.a_id, final.b_id} == {first[0].a_id, first[1].b_id}
    finish(final, 1, django_capture_on_commit_callbacks)
    event.refresh_from_db()
    final.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert final.winner_id == final.a_id and final.result == Board.Result.FORFEIT
    # The same result again (a re-delivered signal, the sweep) changes nothing.
    assert services.record_outcome(outcome_of(final.match_id)) is False
    assert services.sweep(timezone.now()) == 0


@pytest.mark.django_db
def test_byes_go_to_the_top_seeds_and_a_lost_signal_is_swept(django_capture_on_commit_callbacks):
    organiser, *players = people("host", "a1", "a2", "a3")
    for rating, p in zip((1600, 1700, 1500), players, strict=True):
        Rating.objects.create(user=p, key="karuta-competitive", rating=rating, deviation=60)
    event = new_event(organiser)
    for p in players:
        services.join(event, p)
    services.start_due_rounds(timezone.now())
    boards = list(Board.objects.filter(event=event).order_by("position"))
    assert [(b.result, b.a.user.username) for b in boards] == [
        ("bye", "a2"),
        ("pending", "a1"),
    ]
    # The match finishes but no receiver hears it (on_commit callbacks not run): the sweep
    # reads the result back from the match layer.
    rooms.resign(boards[1].match_id, [0], 0)
    assert services.sweep(timezone.now()) == 1
    assert Round.objects.filter(event=event, number=2).exists()


@pytest.mark.django_db
def test_joining_is_refused_clearly():
    organiser, aoi, ren, sou = people("host", "aoi", "ren", "sou")
    Rating.objects.create(user=ren, key="karuta-competitive", rating=2000, deviation=60)
    private = new_event(organiser, by_link=True, division="C")
    with pytest.raises(EventError) as refused:
        services.join(private, aoi, key="wrong")
    assert refused.value.code == "link_only"
    assert services.join(private, aoi, key=private.join_key).user == aoi
    with pytest.raises(EventError) as refused:
        services.join(private, ren, key=private.join_key)
    assert refused.value.code == "division"  # 2000 is A, not C (1500-1699)
    Event.objects.filter(pk=private.pk).update(status=Event.Status.RUNNING)
    private.refresh_from_db()
    with pytest.raises(EventError) as refused:
        services.join(private, sou, key=private.join_key)
    assert refused.value.code == "started"


@pytest.mark.django_db
def test_withdraw_pause_and_repair(django_capture_on_commit_callbacks):
    organiser, *players = people("host", "p1", "p2", "p3", "p4")
    event = new_event(organiser)
    for p in players:
        services.join(event, p)
    services.set_paused(event, True, timezone.now())
    assert services.start_due_rounds(timezone.now()) == 0  # paused: the round waits
    services.set_paused(event, False, timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_due_rounds(timezone.now()) == 1
    one, two = pending(event, 1)
    old_match = one.match_id
    fresh = services.repair_board(event, one, timezone.now())
    assert fresh.match_id != old_match and services.take_seat(fresh, one.a.user_id)
    # The old match finishing no longer counts.
    finish(Board(match_id=old_match), 0, django_capture_on_commit_callbacks)
    one.refresh_from_db()
    assert one.result == Board.Result.PENDING
    services.withdraw(event, one.a, timezone.now())
    one.refresh_from_db()
    assert one.result == Board.Result.WITHDRAWN and one.winner_id == one.b_id
    finish(two, 0, django_capture_on_commit_callbacks)
    assert Round.objects.filter(event=event, number=2).exists()


@pytest.mark.django_db
def test_a_swiss_pairs_without_repeats_and_ends_after_its_rounds(
    django_capture_on_commit_callbacks,
):
    organiser, *players = people("host", "s1", "s2", "s3", "s4", "s5")
    event = new_event(organiser, kind=Event.Kind.SWISS, rounds_total=3, break_seconds=0)
    for p in players:
        services.join(event, p)
    met = set()
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            assert services.start_due_rounds(timezone.now() + timedelta(seconds=1)) == 1
        boards = list(Board.objects.filter(event=event, round__number=number))
        assert [b.result for b in boards].count(Board.Result.BYE) == 1
        for board in boards:
            if board.b_id:
                pair = frozenset((board.a_id, board.b_id))
                assert pair not in met
                met.add(pair)
                finish(board, 1, django_capture_on_commit_callbacks)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert Board.objects.filter(event=event).count() == 9


@pytest.mark.django_db
def test_an_arena_scores_streaks_and_pairs_again(django_capture_on_commit_callbacks):
    organiser, *players = people("host", "r1", "r2", "r3", "r4")
    event = new_event(organiser, kind=Event.Kind.ARENA, minutes=30)
    for p in players:
        services.join(event, p)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_due_rounds(timezone.now())
    hero = Entrant.objects.get(event=event, user=players[0])
    for _ in range(3):  # hero wins three in a row: 2 + 2 + 4
        board = (
            Board.objects.get(event=event, result=Board.Result.PENDING, a=hero)
            if (Board.objects.filter(event=event, result=Board.Result.PENDING, a=hero).exists())
            else Board.objects.get(event=event, result=Board.Result.PENDING, b=hero)
        )
        loser_seat = 1 if board.a_id == hero.pk else 0
        finish(board, loser_seat, django_capture_on_commit_callbacks)
        # Paired again at once: hero (and the opponent) are on a new board or waiting for
        # a partner who is still playing.
    hero.refresh_from_db()
    assert (hero.score, hero.games, hero.wins, hero.run) == (8, 3, 3, 3)
    assert Board.objects.filter(event=event, result=Board.Result.PENDING).count() >= 1


pytestmark_services = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def runner(marker: Path, *extra: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.events.round_runner", str(marker), *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_round_starts_once_across_two_processes_and_a_kill_9(tmp_path):
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("needs PostgreSQL (DATABASE_URL)")
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    organiser, *players = people("host", "k1", "k2", "k3", "k4")
    event = new_event(organiser)
    for p in players:
        services.join(event, p)
    # The first process claims the round and is killed -9 just before its commit, while the
    # second waits on the same round.
    marker = tmp_path / "claimed"
    doomed = runner(marker, "--hold")
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert doomed.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    survivor = runner(tmp_path / "unused")
    time.sleep(1.0)  # let it reach the claimed row (it blocks on its lock)
    assert survivor.poll() is None
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=10)
    out = survivor.communicate(timeout=60)[0]
    assert survivor.returncode == 0 and "started=1" in out, out
    # A third process finds nothing to start.
    third = runner(tmp_path / "unused")
    assert "started=0" in third.communicate(timeout=60)[0]
    assert Board.objects.filter(event=event).count() == 2
    assert Match.objects.count() == 2  # the killed process's matches were rolled back
    assert Round.objects.get(event=event, number=1).started_at is not None


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_openers_at_once_give_every_board_one_match(monkeypatch):
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("needs PostgreSQL (DATABASE_URL)")
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    import threading

    organiser, *players = people("host", *(f"o{i}" for i in range(40)))
    event = new_event(organiser)
    for p in players:
        services.join(event, p)
    opener = services.open_boards
    monkeypatch.setattr(services, "open_boards", lambda event_id: 0)  # claim only
    assert services.start_due_rounds(timezone.now()) == 1
    monkeypatch.setattr(services, "open_boards", opener)
    # 40 entrants in a 64 bracket: 24 byes, 8 boards to open (enough for the worker
    # threads); two openers at once, each with its own threads, one board per transaction.
    monkeypatch.setattr(services, "OPEN_BATCH", 1)
    counts = []

    def open_all():
        try:
            counts.append(services.open_boards(event.pk))
        finally:
            connection.close()  # this thread's own

    threads = [threading.Thread(target=open_all) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    boards = list(Board.objects.filter(event=event, result=Board.Result.PENDING))
    assert len(boards) == 8 and sum(counts) == 8
    assert len({b.match_id for b in boards}) == 8 and None not in {b.match_id for b in boards}
    assert Match.objects.count() == 8
