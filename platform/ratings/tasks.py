"""Celery tasks: one finished match's update (queued by the receiver), and the catch-up sweep
for finished rated matches whose outcome no update dealt with (a process killed between the
match's commit and the update, a signal or a queued message lost). Celery beat runs the
sweep. Both are idempotent by match id (`apply.apply`)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

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


@shared_task(name="ratings.apply_match", acks_late=True)
def apply_match(match_id: str) -> str:
    """Apply one finished match (its outcome rebuilt from the database): APPLIED, ALREADY
    (a retry, a second delivery, the sweep first), UNRATED, or "gone" (the match was
    deleted meanwhile). Acknowledged after it runs: a worker killed mid-update leaves the
    message to be delivered again, and the marker keeps that to one update."""
    outcome = outcome_of(match_id)
    if outcome is None:
        return "gone"
    return apply.apply(outcome)


@shared_task(name="ratings.catch_up")
def catch_up() -> dict[str, int]:
    """Apply every pending match (idempotent: `apply` is, by match id)."""
    since = apply.window_start()
    counts: dict[str, int] = {}
    for match_id in pending(since):
        outcome = outcome_of(match_id)
        if outcome is not None:
            result = apply.apply(outcome)
            counts[result] = counts.get(result, 0) + 1
    return counts


MARKER_MARGIN = timedelta(days=1)


@shared_task(name="ratings.purge_markers")
def purge_markers() -> int:
    """Delete the markers of matches safely applied: dealt with more than a day before the
    window the sweep looks at (RATINGS_CATCH_UP_DAYS) began. Their matches finished before
    it (a marker is written after the finish), so neither the sweep nor a late message
    (`apply.apply` refuses a match that old) can apply them again. Celery beat runs it daily."""
    old = AppliedMatch.objects.filter(applied_at__lt=apply.window_start() - MARKER_MARGIN)
    deleted, _ = old.delete()
    return deleted
