"""Retention: exact to the second, idempotent, never a live match, kept records kept, and
the beat task next to the telemetry purge."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone

import gamekit
from matches import services
from matches.models import Action, Match, Seat
from records import retention, store
from records.models import Record
from records.tasks import purge_expired
from tests.matches.helpers import a_legal_action, load
from tests.records.play import Clock, play_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


def finished_match(monkeypatch, ended, slug="bozu"):
    match, _token = services.create_match(slug, {"players": 2}, "hotseat")
    play_match(match.id, [0, 1], Clock(monkeypatch), seed=1)
    match = Match.objects.get(pk=match.id)
    Action.objects.filter(match=match).update(created=ended)  # its log, the end included
    Match.objects.filter(pk=match.id).update(updated=ended)
    return Match.objects.get(pk=match.id)


def waiting_room(changed):
    match, _token = services.create_match("bozu", {"players": 2}, "friend")
    Match.objects.filter(pk=match.id).update(updated=changed)
    return match


def alive(*matches):
    return {m.pk for m in matches if Match.objects.filter(pk=m.pk).exists()}


def test_the_boundary_is_exact_to_the_second(monkeypatch):
    now = timezone.now()
    days = settings.RECORDS_RETENTION_DAYS
    exactly = finished_match(monkeypatch, now - timedelta(days=days))
    older = finished_match(monkeypatch, now - timedelta(days=days, seconds=1))
    recent = finished_match(monkeypatch, now - timedelta(days=days) + timedelta(seconds=1))
    hours = settings.RECORDS_ABANDONED_HOURS
    room_old = waiting_room(now - timedelta(hours=hours, seconds=1))
    room_exactly = waiting_room(now - timedelta(hours=hours))
    gone_rows = (
        Action.objects.filter(match=older).count() + Action.objects.filter(match=room_old).count()
    )
    assert retention.purge(now) == {"matches": 2, "actions": gone_rows}
    assert alive(exactly, older, recent, room_old, room_exactly) == {
        exactly.pk,
        recent.pk,
        room_exactly.pk,
    }
    assert not Seat.objects.filter(match_id__in=[older.pk, room_old.pk]).exists()
    assert retention.purge(now) == {"matches": 0, "actions": 0}  # idempotent


def test_the_clock_runs_from_the_last_move_not_from_later_visits(monkeypatch):
    """A socket opening on a finished match moves `Match.updated`; the record still goes
    when its last log line is old enough, as the privacy page says."""
    now = timezone.now()
    old = finished_match(monkeypatch, now - timedelta(days=settings.RECORDS_RETENTION_DAYS + 1))
    Match.objects.filter(pk=old.pk).update(updated=now)  # someone opened its page today
    assert retention.purge(now)["matches"] == 1


def test_a_kept_record_outlives_the_retention_up_to_its_date(monkeypatch):
    now = timezone.now()
    old = finished_match(monkeypatch, now - timedelta(days=100))
    record = store.for_match(old.pk)
    store.keep_longer(record)
    record.refresh_from_db()
    ended = Action.objects.get(match=old, seq=old.seq).created
    assert record.keep_until == ended + timedelta(days=settings.RECORDS_KEEP_MAX_DAYS)
    assert retention.purge(now)["matches"] == 0
    assert retention.purge(record.keep_until)["matches"] == 0  # kept until then, inclusive
    assert retention.purge(record.keep_until + timedelta(seconds=1))["matches"] == 1
    assert not Record.objects.exists()


def test_running_matches_are_never_deleted_however_old(monkeypatch):
    match, _token = services.create_match("bozu", {"players": 2}, "hotseat")
    Match.objects.filter(pk=match.id).update(updated=timezone.now() - timedelta(days=400))
    assert retention.purge()["matches"] == 0
    assert Match.objects.get(pk=match.id).status == Match.Status.PLAYING


def test_the_purge_runs_while_a_match_is_played(monkeypatch):
    """Old matches go while another match is played move by move: none of the live
    match's rows is touched and its log still replays to its state."""
    now = timezone.now()
    old = [finished_match(monkeypatch, now - timedelta(days=40)) for _ in range(6)]
    live, _token = services.create_match("bakudan", {"players": 3}, "hotseat")
    monkeypatch.setattr(retention, "BATCH", 1)  # one short transaction per old match
    errors: list[BaseException] = []
    moves = []

    def play():
        try:
            rng = random.Random(5)
            for n in range(40):
                match, state = load(live.id)
                if match.status != Match.Status.PLAYING:
                    break
                game = gamekit.registry.get(match.game)
                (seat,) = game.to_act(state)
                services.submit_action(
                    live.id, [0, 1, 2], a_legal_action(live.id, seat, rng), action_id=f"m{n}"
                )
                moves.append(n)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    player = threading.Thread(target=play)
    player.start()
    result = retention.purge(now)
    player.join()
    assert not errors
    assert result["matches"] == len(old)
    assert alive(*old) == set()
    match = Match.objects.get(pk=live.id)
    assert Action.objects.filter(match=match).count() == match.seq
    game = gamekit.registry.get("bakudan")
    assert game.dump_state(services.replay(match)) == match.state
    assert moves


def test_the_task_is_scheduled_daily_next_to_the_telemetry_purge(monkeypatch):
    entry = settings.CELERY_BEAT_SCHEDULE["records-purge-expired"]
    assert entry["task"] == purge_expired.name == "records.purge_expired"
    finished_match(monkeypatch, timezone.now() - timedelta(days=90))
    rows = Action.objects.count()
    assert purge_expired.apply().get() == {"matches": 1, "actions": rows}
    assert not Match.objects.exists()
