"""The ratings' receiver of `matches.signals.match_finished` (sent after the commit that
finished a match). The sweep in `tasks` delivers what a killed process never received.

With a Celery worker (RATINGS_CELERY, by default MATCHES_CELERY: a shared broker), the
receiver only queues `ratings.apply_match` with the match id, so the process that finished
the match sends its last frames without waiting for the update (a few queries, or longer
behind another match's row locks). The task rebuilds the outcome from the database and
applies it, exactly once by the `AppliedMatch` marker however often it runs; a message the
broker lost (or never took) is the sweep's. Without a worker (the embedded default, the
tests) nothing would ever run the task, so the receiver applies the outcome itself.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from ratings import apply

log = logging.getLogger(__name__)


def use_celery() -> bool:
    return bool(getattr(settings, "RATINGS_CELERY", getattr(settings, "MATCHES_CELERY", False)))


def on_match_finished(sender: Any, match_id: Any, outcome: Any, **kwargs: Any) -> None:
    if not outcome.rated:
        return
    if not use_celery():
        apply.apply(outcome)
        return
    from ratings import tasks  # the tasks import the match layer's outcome, as this does not

    try:
        tasks.apply_match.delay(str(outcome.match_id))
    except Exception as exc:  # the broker is down: the catch-up sweep applies it later
        log.warning("could not queue a rating update: %s", type(exc).__name__)
