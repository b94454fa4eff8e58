"""The beat's tick (config/settings.py CELERY_BEAT_SCHEDULE "events-tick"): start rounds
whose time has come, catch up on lost results, run the arenas' waves."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from events import services


@shared_task(name="events.tick", ignore_result=True, soft_time_limit=60)
def tick() -> dict[str, int]:
    return services.tick(timezone.now())


@shared_task(name="events.start_round", ignore_result=True, soft_time_limit=60)
def start_round(round_id: int) -> bool:
    """Queued for a round's due time (services.schedule_start)."""
    return services.start_round(round_id, timezone.now())
