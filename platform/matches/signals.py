"""What the match layer announces to the apps built on it (ratings, records, the lobby,
events), which it never imports: `match_finished`, sent once after the commit that finished
a match, with `match_id` and `outcome` (a `matches.outcome.MatchOutcome`).

A signal can be lost (a process killed between the commit and the receivers), so receivers
are idempotent by match id and catch up with `Match.objects.finished_since` + `outcome_of`.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from matches.models import Match
from matches.outcome import outcome_of

log = logging.getLogger(__name__)

match_finished = Signal()  # sender=Match; kwargs: match_id, outcome


def finish(match: Match, now: datetime) -> None:
    """Mark `match` finished (the caller saves it, inside the transaction that finishes it)
    and announce it once that transaction commits (never if it rolls back)."""
    if match.status == Match.Status.FINISHED and match.finished_at is not None:
        return  # already finished: announced by the commit that finished it
    match.status = Match.Status.FINISHED
    match.finished_at = now
    match_id = match.pk
    transaction.on_commit(lambda: announce(match_id))


def announce(match_id: Any) -> None:
    """Send `match_finished` for a finished match (after its commit)."""
    outcome = outcome_of(match_id)
    if outcome is None:  # gone meanwhile (deleted): nothing to announce
        return
    # A receiver's failure is its own: the match is finished and committed either way.
    for receiver, result in match_finished.send_robust(
        sender=Match, match_id=outcome.match_id, outcome=outcome
    ):
        if isinstance(result, Exception):
            log.error(
                "a match_finished receiver (%s) failed: %s",
                getattr(receiver, "__qualname__", "?"),
                type(result).__name__,
            )
