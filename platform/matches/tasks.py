"""Celery side of the match timers: works across processes and after restarts.

`advance_match` is queued with an ETA whenever a commit leaves a server-side move
due (MATCHES_CELERY on). `sweep_stalled_matches` runs from Celery beat and moves
any match whose due time passed without anyone acting (a lost task, a restart).
Both go through `services.advance` (autoplay.py), written at the expected `seq` through the
log's fence (moves.fenced): a move the driver or another worker played first is not played
again.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task

from matches import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True, soft_time_limit=30)
def advance_match(match_id: str, seq: int) -> int | None:
    return services.advance(match_id, expected_seq=seq)


@shared_task(ignore_result=True, soft_time_limit=300)
def sweep_stalled_matches() -> int:
    """Advance overdue matches; returns how many moves it played."""
    return services.sweep(timedelta(seconds=services.conf("STALL_S", 10)))
