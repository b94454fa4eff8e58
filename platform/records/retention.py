"""Retention: finished matches (and so their records) live `RECORDS_RETENTION_DAYS` after
their last log line (the end, or a later room line such as "play again"; not `Match.updated`,
which a socket opening on the finished match moves on), unless a seated player asked to keep
the record longer (`Record.keep_until`, at most `RECORDS_KEEP_MAX_DAYS`); rooms that never
started are gone after `RECORDS_ABANDONED_HOURS`. A running match is never touched.

The purge works in batches of matches, each in its own short transaction that locks the
batch's match rows (`SKIP LOCKED`: a match someone is changing right now waits for the next
run), re-checks them under the lock, and deletes their log, seats, record and row with one
statement per table, so live matches' moves wait on nothing of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from matches.models import Action, Match, Seat
from records.models import Record

BATCH = 500  # matches per transaction


def retention_days() -> int:
    return int(settings.RECORDS_RETENTION_DAYS)


def abandoned_hours() -> int:
    return int(settings.RECORDS_ABANDONED_HOURS)


def ended_at(match: Match) -> datetime:
    """When a finished match's log last moved: what its retention counts from."""
    return Action.objects.get(match=match, seq=match.seq).created


def expired(now: datetime) -> Q:
    """The matches due for deletion at `now`: finished ones whose last log line is older
    than the retention period (exactly that old: kept) and that nobody keeps past now, and
    rooms that never started, untouched for longer than their own limit."""
    cutoff = now - timedelta(days=retention_days())
    # The line at the match's own seq: one lookup in the (match, seq) index per match (a
    # finished match without it, which a whole log never is, has nothing to keep either).
    recent = Action.objects.filter(match=OuterRef("pk"), seq=OuterRef("seq"), created__gte=cutoff)
    finished = Q(status=Match.Status.FINISHED) & ~Exists(recent)
    kept = Q(record__keep_until__gte=now)  # kept to the second, inclusive
    abandoned = Q(status=Match.Status.WAITING, updated__lt=now - timedelta(hours=abandoned_hours()))
    return (finished & ~kept) | abandoned


def delete_matches(ids: Sequence[Any]) -> int:
    """Delete these matches with their log, seats and record; the number of log rows gone.
    Call inside a transaction that holds their rows' locks (or for matches nobody plays)."""
    if not ids:
        return 0
    ids = list(ids)
    with transaction.atomic():
        # A later match pointing back at one of these keeps going without the link.
        Match.objects.filter(next_match_id__in=ids).update(next_match=None)
        actions = Action.objects.filter(match_id__in=ids)._raw_delete(connection.alias)
        Seat.objects.filter(match_id__in=ids)._raw_delete(connection.alias)
        Record.objects.filter(match_id__in=ids)._raw_delete(connection.alias)
        Match.objects.filter(pk__in=ids)._raw_delete(connection.alias)
    return actions


def purge(now: datetime | None = None) -> dict[str, int]:
    """Delete every expired match; how many matches and log rows went. Idempotent."""
    now = now or timezone.now()
    matches = actions = 0
    while True:
        with transaction.atomic():
            # Oldest first (every line also moves `updated`): a run reaches the expired
            # matches before the recent ones it would only have to look at and pass.
            candidates = Match.objects.filter(expired(now)).order_by("status", "updated")
            if connection.features.has_select_for_update_skip_locked:
                candidates = candidates.select_for_update(skip_locked=True, of=("self",))
            ids = list(candidates.values_list("pk", flat=True)[:BATCH])
            if not ids:
                break
            actions += delete_matches(ids)
            matches += len(ids)
    return {"matches": matches, "actions": actions}
