"""Applying a finished match's outcome to the ratings, exactly once.

The gate is `AppliedMatch`, unique by match id, written in the same transaction as the
ratings it changes: whichever of the receiver, the sweep or a retry commits first applies
the match; any other one meets the unique constraint (PostgreSQL makes a concurrent insert
wait for the first transaction, then fails it) and changes nothing. A process killed before
its commit leaves nothing behind, so the sweep applies the match later.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ratings import pure, rules
from ratings.models import AppliedMatch, Rating, RatingChange

log = logging.getLogger(__name__)

APPLIED, ALREADY, UNRATED, TOO_OLD = "applied", "already", "unrated", "too old"


def window_start():
    """Matches finished before this are never applied: the catch-up sweep no longer looks
    at them, and their markers may have been purged (tasks.purge_markers), so a message
    redelivered that late could not tell an applied match from a new one."""
    return timezone.now() - timedelta(days=settings.RATINGS_CATCH_UP_DAYS)


def seat_results(outcome: Any) -> list[rules.SeatResult]:
    return [
        rules.SeatResult(user_id=s.user_id, is_cpu=s.is_cpu, place=s.place, forfeited=s.forfeited)
        for s in sorted(outcome.seats, key=lambda s: s.index)
    ]


def apply(outcome: Any) -> str:
    """Apply a `matches.outcome.MatchOutcome`: APPLIED, ALREADY (applied before: nothing
    changes), UNRATED (marked, nothing to change) or TOO_OLD (finished before the window:
    nothing changes, nothing is marked)."""
    if outcome.finished_at < window_start():
        return TOO_OLD
    key = rules.rating_key(outcome.game, outcome.mode, outcome.settings)
    seats = seat_results(outcome)
    reason = rules.unrated_reason(outcome.rated, key, seats)
    try:
        with transaction.atomic():
            AppliedMatch.objects.create(
                match_id=outcome.match_id, key=key or "", reason=reason or ""
            )
            if reason is not None:
                return UNRATED
            _update(outcome, key, seats)
    except IntegrityError:
        return ALREADY
    return APPLIED


def _update(outcome: Any, key: str, seats: list[rules.SeatResult]) -> None:
    users = sorted(s.user_id for s in seats)
    start = pure.start(rules.SYSTEMS[key])
    # Rows in user order, then locked in that order: two matches of the same players wait
    # for each other instead of deadlocking, and neither reads a rating the other changes.
    Rating.objects.bulk_create(
        [
            Rating(user_id=u, key=key, rating=start.rating, deviation=start.deviation,
                   volatility=start.volatility)
            for u in users
        ],
        ignore_conflicts=True,
    )  # fmt: skip
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(key=key, user_id__in=users)
        .order_by("user_id")
    }
    played = outcome.finished_at
    # Each player as of this game: a Glicko-2 deviation has grown since their last game.
    before = {u: r.live(played) for u, r in rows.items()}
    after = rules.update(key, outcome.settings, seats, before)
    places = rules.places(seats)
    for seat in seats:
        row, new = rows[seat.user_id], after[seat.user_id]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.last_played = played if row.last_played is None else max(row.last_played, played)
        row.settle()
    Rating.objects.bulk_update(
        rows.values(), ["rating", "deviation", "volatility", "games", "last_played", "board_until"]
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            user_id=seat.user_id,
            key=key,
            match_id=outcome.match_id,
            played_at=played,
            rating_before=before[seat.user_id].rating,
            rating=after[seat.user_id].rating,
            deviation=after[seat.user_id].deviation,
            place=place,
            seats=len(seats),
        )
        for seat, place in zip(seats, places, strict=True)
    )
