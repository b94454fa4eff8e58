"""The 30-day purge: exact at the boundary, batched, idempotent, safe twice at once."""

import threading
from datetime import timedelta
from io import StringIO

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from telemetry.models import TelemetryEvent
from telemetry.tasks import purge_expired
from tests.telemetry.factories import make_events


@pytest.mark.django_db
def test_exact_at_the_boundary():
    now = timezone.now()
    kept = [
        make_events(now - timedelta(days=29, hours=23))[0],
        make_events(now - timedelta(days=30))[0],  # exactly 30 days: not yet older
        make_events(now)[0],
    ]
    make_events(now - timedelta(days=30, minutes=1))
    make_events(now - timedelta(days=90), count=3)
    assert TelemetryEvent.objects.purge_expired(now=now) == 4
    assert set(TelemetryEvent.objects.values_list("pk", flat=True)) == {e.pk for e in kept}
    assert TelemetryEvent.objects.purge_expired(now=now) == 0  # idempotent


@pytest.mark.django_db
def test_deletes_in_bounded_primary_key_batches():
    now = timezone.now()
    make_events(now - timedelta(days=31), count=10)
    make_events(now - timedelta(days=1), count=2)
    with CaptureQueriesContext(connection) as queries:
        assert TelemetryEvent.objects.purge_expired(now=now, batch_size=3) == 10
    deletes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 4  # 3 + 3 + 3 + 1
    assert TelemetryEvent.objects.count() == 2


@pytest.mark.django_db
def test_the_management_command_calls_the_same_purge():
    make_events(timezone.now() - timedelta(days=40), count=5)
    make_events(timezone.now(), count=1)
    out = StringIO()
    call_command("purge_telemetry", "--batch-size", "2", stdout=out)
    assert "Deleted 5 " in out.getvalue()
    assert TelemetryEvent.objects.count() == 1


@pytest.mark.django_db
def test_the_task_runs_the_purge():
    make_events(timezone.now() - timedelta(days=40), count=3)
    assert purge_expired.apply().get() == 3
    assert TelemetryEvent.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_purges_at_once_delete_each_row_once():
    now = timezone.now()
    make_events(now - timedelta(days=45), count=400)
    make_events(now - timedelta(days=2), count=7)
    results, errors = [], []
    start = threading.Barrier(2)

    def run():
        try:
            start.wait()
            results.append(TelemetryEvent.objects.purge_expired(now=now, batch_size=25))
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert sum(results) == 400
    assert TelemetryEvent.objects.count() == 7


def test_scheduled_daily_by_beat_with_a_soft_limit_below_the_visibility_timeout():
    entry = settings.CELERY_BEAT_SCHEDULE["telemetry-purge-expired"]
    assert entry["task"] == purge_expired.name == "telemetry.purge_expired"
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert schedule.hour == {3} and schedule.day_of_week == set(range(7))
    assert 0 < purge_expired.soft_time_limit < purge_expired.time_limit < 3600
