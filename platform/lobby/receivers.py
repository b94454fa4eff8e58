"""What the lobby takes from finished matches: abandonment of rated games (fair play).

`match_finished` comes once after the commit that finished a match, but can be lost (a
process killed between the commit and the receivers): recording is idempotent by (user,
match), and `catch_up` re-reads finished matches from the match layer's own records."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from lobby.models import Abandonment

try:
    from matches.signals import match_finished
except ImportError:  # the match layer's signal has not landed yet
    match_finished = None


def record_outcome(outcome: Any) -> int:
    """Count each forfeited seat of a signed-in person in a rated match; return how many
    were new."""
    if not getattr(outcome, "rated", False):
        return 0
    new = 0
    for seat in outcome.seats:
        if seat.forfeited and seat.user_id is not None and not seat.is_cpu:
            try:
                with transaction.atomic():
                    Abandonment.objects.create(
                        user_id=seat.user_id, match_id=outcome.match_id, at=outcome.finished_at
                    )
                new += 1
            except IntegrityError:
                pass  # recorded already (a re-delivered signal, the sweep)
    return new


def on_match_finished(sender: Any, match_id: Any = None, outcome: Any = None, **_: Any) -> None:
    if outcome is not None:
        record_outcome(outcome)
        from lobby import takes

        takes.count_match(outcome)


def catch_up(since: datetime) -> int:
    """Record every rated match finished since `since` (after a crash lost signals)."""
    from matches.models import Match
    from matches.outcome import outcome_of

    new = 0
    for match in Match.objects.finished_since(since).filter(rated=True):
        outcome = outcome_of(getattr(match, "pk", match))
        if outcome is not None:
            new += record_outcome(outcome)
            from lobby import takes

            takes.count_match(outcome)
    return new


if match_finished is not None:
    match_finished.connect(on_match_finished, dispatch_uid="lobby.abandonments")
