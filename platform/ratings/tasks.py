"""The catch-up sweep: finished rated matches whose outcome no receiver applied (a process
killed between the match's commit and the update, a signal lost). Celery beat runs it."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from matches.models import Match
from matches.outcome import outcome_of
from ratings import apply
from ratings.models import AppliedMatch

BATCH = 500


def pending(since) -> list:
    """Ids of rated matches finished since `since` that no update has dealt with yet."""
    applied = AppliedMatch.objects.values("match_id")
    return list(
        Match.objects.finished_since(since)
        .filter(rated=True)
        .exclude(pk__in=applied)
        .values_list("pk", flat=True)[:BATCH]
    )


@shared_task(name="ratings.catch_up")
def catch_up() -> dict[str, int]:
    """Apply every pending match (idempotent: `apply` is, by match id)."""
    since = timezone.now() - timedelta(days=settings.RATINGS_CATCH_UP_DAYS)
    counts: dict[str, int] = {}
    for match_id in pending(since):
        outcome = outcome_of(match_id)
        if outcome is not None:
            result = apply.apply(outcome)
            counts[result] = counts.get(result, 0) + 1
    return counts
