"""The lobby's catch-up sweep: abandonments of rated matches whose match_finished no
receiver saw (a process killed between the finish's commit and the receivers). Recording
is idempotent by (user, match), so the sweep simply reads the last day again."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from lobby import receivers

LOOK_BACK = timedelta(days=1)


@shared_task(name="lobby.catch_up")
def catch_up() -> int:
    return receivers.catch_up(timezone.now() - LOOK_BACK)
