"""Results reach events from `match_finished` (once, after the commit that finished a
match). A signal lost to a kill -9 is made good by `services.sweep` on the beat's tick;
recording is idempotent by match id either way."""

from __future__ import annotations

from typing import Any

from events import services
from matches.signals import match_finished


def on_match_finished(sender: Any, match_id: Any = None, outcome: Any = None, **_: Any) -> None:
    if outcome is not None:
        services.record_outcome(outcome)


match_finished.connect(on_match_finished, dispatch_uid="events.results")
