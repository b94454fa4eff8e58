"""The Bakudan Mekuri page: menu (with a game number from a link), rules, deck, tips, cards, FAQ.

The play screen is bakudan/play.html (rendered by matches.views.play) with
static/js/bakudan/play.js.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import gamekit
from games.bakudan import faq
from pages.kimariji_list import script_json

# A game number is short (A3N-1K); anything much longer is not worth parsing.
MAX_NUMBER_LENGTH = 32


def menu_form(game: gamekit.Game, number: str | None) -> tuple[Any, str | None]:
    """The settings form for the menu, and the game number it starts (or None).

    With `?number=...` the form is checked as if posted, so a bad number is refused with
    the form's own message and a good one fills in the players and CPU personality it
    encodes (the form's clean makes them agree with the number).
    """
    form_class = game.settings_form
    if not number:
        return form_class(), None
    if len(number) > MAX_NUMBER_LENGTH:
        number = number[:MAX_NUMBER_LENGTH]
    defaults = form_class()
    data = {name: defaults[name].value() for name in defaults.fields}
    data = {name: value for name, value in data.items() if value is not None}
    data["number"] = number
    bound = form_class(data=data)
    if not bound.is_valid():
        return bound, None
    return form_class(initial=bound.cleaned_data), bound.cleaned_data.get("number") or number


def number_errors(form: Any) -> list[str]:
    if not form.is_bound or "number" not in form.errors:
        return []
    return list(form.errors["number"])


@require_safe
def index(request):
    game = gamekit.registry.get("bakudan")
    form, number = menu_form(game, request.GET.get("number", "").strip())
    table = None
    if number:
        players = form.initial.get("players")
        level = form.initial.get("cpu_level")
        labels = {lv.key: lv.label for lv in game.cpu_levels}
        table = _("%(players)s players · CPU: %(level)s") % {
            "players": players,
            "level": labels.get(level, level),
        }
    context = {
        "game": game,
        "settings_form": form,
        "number": number,
        "number_table": table,
        "number_errors": number_errors(form),
        "deck_rows": deck_rows(),
        "faq": faq.faq_items(),
        "faq_jsonld": script_json(faq.faq_jsonld()),
    }
    return render(request, "bakudan/index.html", context)


def deck_rows() -> list[dict[str, Any]]:
    """The deck composition for every table size, from the engine's own constants."""
    from games.bakudan import engine

    game = gamekit.registry.get("bakudan")
    rows = []
    for players in range(game.min_players, game.max_players + 1):
        counts = engine.deck_composition(players)
        rows.append({"players": players, **counts})
    return rows
