"""The ratings' receiver of `matches.signals.match_finished` (sent after the commit that
finished a match). The sweep in `tasks` delivers what a killed process never received."""

from __future__ import annotations

from typing import Any

from ratings import apply


def on_match_finished(sender: Any, match_id: Any, outcome: Any, **kwargs: Any) -> None:
    if outcome.rated:
        apply.apply(outcome)
