"""How a finished match ended, per seat, in words of the active language: the record page's
heading and table, its share description and the preview image."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

import gamekit
from gamekit import Outcome, Termination, colour_label
from matches.models import Match

SCORE_LABELS = {
    "cards_left": lambda: _("cards left"),
    "cards_taken": lambda: _("cards taken"),
}


def summary(match: Match) -> dict[str, Any]:
    game = gamekit.registry.get(match.game)
    outcome = Outcome.from_json(match.outcome or {})
    score_kind = None
    if match.state is not None:
        result = game.result(game.load_state(match.state)) or {}
        score_kind = result.get("score_kind")
    rows = []
    for seat in match.seats.select_related("user").order_by("index"):
        place = outcome.places[seat.index] if seat.index < len(outcome.places) else None
        score = None
        if outcome.scores is not None and seat.index < len(outcome.scores):
            score = int(outcome.scores[seat.index])
        rows.append(
            {
                "seat": seat.index,
                "colour": seat.colour,
                # A signed-in player's handle; a guest or a CPU is named by its colour.
                "label": seat.handle or colour_label(seat.colour),
                "handle": seat.handle,
                "cpu": seat.is_cpu,
                "place": place,
                "score": score,
            }
        )
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["seat"]))
    label = SCORE_LABELS.get(score_kind)
    winners = [r["label"] for r in rows if r["place"] == 1]
    if outcome.termination == Termination.RESIGNED:
        line = _("Ended by a resignation.")
    elif outcome.termination == Termination.ABANDONED:
        line = _("Ended when a player left.")
    elif winners:
        line = _("Won by %(who)s.") % {"who": ", ".join(winners)}
    else:
        line = _("The game is over.")
    return {
        "rows": rows,
        "score_label": label() if label else None,
        "line": line,
        "name": str(game.name),
    }
