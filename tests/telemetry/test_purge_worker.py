"""The purge task run by a real Celery worker (celery.contrib.pytest's celery_worker fixture),
on the embedded filesystem broker and, when REDIS_URL is set, on Redis (CI sets it)."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
from celery.contrib.pytest import (  # noqa: F401  (fixtures used by celery_worker)
    celery_app,
    celery_enable_logging,
    celery_includes,
    celery_parameters,
    celery_worker,
    celery_worker_pool,
    use_celery_app_trap,
)
from django.conf import settings
from django.utils import timezone

from telemetry import tasks  # noqa: F401  (registers the shared task on every app)
from telemetry.models import TelemetryEvent
from tests.telemetry.factories import make_events

REDIS_URL = os.environ.get("REDIS_URL", "")


def settings_celery_config() -> dict:
    """The CELERY_* settings as the app reads them (config.celery uses namespace CELERY)."""
    return {
        name.removeprefix("CELERY_").lower(): getattr(settings, name)
        for name in dir(settings)
        if name.startswith("CELERY_")
    }


@pytest.fixture(params=["filesystem", pytest.param("redis", marks=pytest.mark.services)])
def celery_config(request, tmp_path):
    config = settings_celery_config()
    if request.param == "filesystem":
        # The embedded default transport, in a folder of its own for this test.
        folder = tmp_path / "broker"
        (folder / "processed").mkdir(parents=True)
        config.update(
            broker_url="filesystem://",
            broker_transport_options={
                **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
                "data_folder_in": str(folder),
                "data_folder_out": str(folder),
                "processed_folder": str(folder / "processed"),
                "control_folder": str(folder / "control"),
            },
        )
    else:
        if not REDIS_URL:
            pytest.skip("REDIS_URL is not set (CI sets it; a skip fails the CI run)")
        config.update(broker_url=REDIS_URL, broker_transport_options={"visibility_timeout": 3600})
    return config


@pytest.fixture
def celery_includes():  # noqa: F811  (overrides the plugin's fixture)
    return ["telemetry.tasks"]


@pytest.fixture
def celery_worker_parameters():
    # Results are ignored in our settings, so the ping check (which waits for a result) is off;
    # the test waits for the task's effect in the database instead.
    return {"perform_ping_check": False, "shutdown_timeout": 30}


@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_purge(celery_app, celery_worker):  # noqa: F811
    now = timezone.now()
    make_events(now - timedelta(days=31), count=12)
    make_events(now - timedelta(days=29, hours=23), count=3)
    assert celery_app.conf.broker_url.split(":")[0] in ("filesystem", "redis")

    celery_app.send_task("telemetry.purge_expired")
    deadline = time.monotonic() + 30
    while TelemetryEvent.objects.expired().exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert TelemetryEvent.objects.expired().count() == 0
    assert TelemetryEvent.objects.count() == 3
    control = celery_app.conf.broker_transport_options.get("control_folder")
    if control:  # the filesystem broker kept its exchange tables where it was told to
        assert Path(control).is_dir()
