"""The Bakudan Mekuri page: menu (with a game number from a link), rules, deck, tips, cards, FAQ.

The play screen is bakudan/play.html (rendered by matches.views.play) with
static/js/bakudan/play.js.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import gamekit
from games.bakudan import faq
from games.bakudan.forms import initial_from_number
from games.bakudan.number import GameNumber, GameNumberError, decode
from games.bakudan.text import KIND_LABELS
from pages.kimariji_list import script_json

# The rules' own example and the same game in the long, checked form the site writes.
RULES_EXAMPLE = "A3N-1K"
LONG_EXAMPLE = str(decode(RULES_EXAMPLE))

# A game number is short (A3N-1K02); anything much longer is not worth parsing.
MAX_NUMBER_LENGTH = 32


def menu_form(game: gamekit.Game, text: str) -> tuple[Any, GameNumber | None]:
    """The settings form for the menu, and the game number it starts (or None).

    With `?number=...` a good number fills in the players and CPU personality it encodes; a
    bad one comes back as the form bound to it, so the page shows the form's own message.
    """
    form_class = game.settings_form
    if not text:
        return form_class(), None
    text = text[:MAX_NUMBER_LENGTH]
    try:
        initial = initial_from_number(text)
    except GameNumberError:
        bound = form_class(data={"players": form_class().fields["players"].initial, "number": text})
        bound.is_valid()
        return bound, None
    return form_class(initial=initial), decode(initial["number"])


def number_errors(form: Any) -> list[str]:
    if not form.is_bound or "number" not in form.errors:
        return []
    return list(form.errors["number"])


@require_safe
def index(request):
    game = gamekit.registry.get("bakudan")
    form, number = menu_form(game, request.GET.get("number", "").strip())
    start = None
    if number:
        levels = {level.key: level.label for level in game.cpu_levels}
        start = {
            "number": str(number),
            "players": number.players,
            "cpu_level": number.cpu,
            # A number for a table of people starts on this device; one with a CPU, against it.
            "play_mode": "cpu" if number.cpu else "hotseat",
            "table": (
                _("%(players)s players · CPU: %(level)s")
                % {"players": number.players, "level": levels[number.cpu]}
                if number.cpu
                else _("%(players)s players, people only") % {"players": number.players}
            ),
        }
    context = {
        "game": game,
        "settings_form": form,
        "start": start,
        "number_errors": number_errors(form),
        "deck": deck_table(),
        "long_example": LONG_EXAMPLE,
        "faq": faq.faq_items(),
        "faq_jsonld": script_json(faq.faq_jsonld()),
    }
    return render(request, "bakudan/index.html", context)


# The playing-card version maps one rank to each kind (four cards a rank in a pack);
# bombs are the two jokers and then kings, blanks are 9, 10, J and Q.
PACK_LIMITS = {"bomb": 2 + 4, "nipper": 4, "blank": 16}
PACK_RANK = 4


def deck_table() -> dict[str, Any]:
    """The cards of a game for every table size, computed from the engine's own table.

    Rows are kinds, columns player counts (a narrow table that fits a phone).
    """
    from games.bakudan import engine

    game = gamekit.registry.get("bakudan")
    counts = range(game.min_players, game.max_players + 1)
    columns = []
    for players in counts:
        composition = engine.COMPOSITION[players]
        cards = {"bomb": players - 1, "nipper": players + composition.extra_nippers}
        cards.update(composition.actions)
        cards["blank"] = composition.blanks
        deck = composition.deck_size(players)
        columns.append(
            {
                "players": players,
                "cards": cards,
                "total": sum(cards.values()),
                "extra_nippers": composition.extra_nippers,
                "deck": deck,
                "per_player": deck / players,
                "danger": (players - 1) / deck,
                "one_pack": all(n <= PACK_LIMITS.get(kind, PACK_RANK) for kind, n in cards.items()),
            }
        )
    kinds = ["bomb", "nipper", *engine.ACTIONS, "blank"]
    rows = [
        {"kind": kind, "label": KIND_LABELS[kind], "counts": [c["cards"][kind] for c in columns]}
        for kind in kinds
    ]
    one_pack = [c["players"] for c in columns if c["one_pack"]]
    return {
        "columns": columns,
        "rows": rows,
        "hand_actions": engine.HAND_ACTIONS,
        "one_pack_max": max(one_pack) if one_pack else None,
        "per_player_low": number_format(min(c["per_player"] for c in columns), 0),
        "per_player_high": number_format(max(c["per_player"] for c in columns), 0),
    }
