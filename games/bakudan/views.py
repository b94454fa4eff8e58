"""The Bakudan Mekuri page: menu (with a game number from a link), rules, deck, tips, cards, FAQ.

The play screen is bakudan/play.html (rendered by matches.views.play) with
static/js/bakudan/play.js.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

import gamekit
from games.bakudan import faq
from pages.kimariji_list import script_json

KIND_LABELS = {
    "bomb": gettext_lazy("Bomb"),
    "nipper": gettext_lazy("Wire cutters"),
    "peek": gettext_lazy("Peek"),
    "dodge": gettext_lazy("Dodge"),
    "bottom": gettext_lazy("Bottom draw"),
    "push": gettext_lazy("Push"),
    "snatch": gettext_lazy("Snatch"),
    "shield": gettext_lazy("Shield"),
    "shuffle": gettext_lazy("Shuffle"),
    "blank": gettext_lazy("Blank"),
}

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
        "deck": deck_table(),
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
