"""The Bozu Mekuri page: menu, rules, classes, tips with simulated figures, history, FAQ."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

import gamekit
from games.bozu.faq import faq_items, faq_jsonld
from games.bozu.figures import figures_for, load_seat_runs, load_table
from games.bozu.forms import BozuSettingsForm
from games.bozu.rules import Rules
from pages.kimariji_list import script_json
from poems.models import Poem


def _rounded(value: float, places: int) -> Decimal:
    """Round half up, once, here: number_format alone would cut the digits off (64.75 →
    "64.7"), and the page shows these strings as they are (static/js/bozu/page.js)."""
    return Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _percent(value: float) -> str:
    return f"{number_format(_rounded(value * 100, 2), 2)}%"


def _cards(value: float) -> str:
    return number_format(_rounded(value, 1), 1)


def shown(row: dict[str, Any]) -> dict[str, Any]:
    """A figures row as the page shows it, in the active language's number format."""
    return {
        "sole": [_percent(x) for x in row["sole_first"]],
        "shared": [_percent(x) for x in row["shared_first"]],
        "draw_rate": _percent(row["draw_rate"]),
        "winner_mean_cards": _cards(row["winner_mean_cards"]),
        "field_mean_cards": _cards(row["field_mean_cards"]),
        "biggest_move_mean": _cards(row["biggest_move_mean"]),
    }


def rules_key(settings: dict[str, Any]) -> str:
    """The same key static/js/bozu/page.js builds from the menu."""
    extra = int(bool(settings["princess_extra_draw"]))
    return f"{settings['players']}|{settings['semimaru']}|{settings['emperor']}|{extra}"


def describe_rules(settings: dict[str, Any]) -> str:
    """One sentence naming the chosen rules, in the active language."""
    form = BozuSettingsForm()
    semimaru = dict(form.fields["semimaru"].choices)[settings["semimaru"]]
    emperor = dict(form.fields["emperor"].choices)[settings["emperor"]]
    extra = (
        _("princess extra draw on")
        if settings["princess_extra_draw"]
        else _("princess extra draw off")
    )
    return _("%(players)s players · Semimaru: %(semimaru)s · Emperor: %(emperor)s · %(extra)s") % {
        "players": settings["players"],
        "semimaru": semimaru,
        "emperor": emperor,
        "extra": extra,
    }


def figures_context(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    row = figures_for(settings)
    text = shown(row)
    seats = [
        {
            "colour": colour,
            "label": gamekit.colour_label(colour),
            "sole": text["sole"][i],
            "shared": text["shared"][i],
        }
        for i, colour in enumerate(gamekit.SEAT_COLOURS[: row["settings"]["players"]])
    ]
    return {
        "figures": row,
        "figures_rules": describe_rules(row["settings"]),
        "figures_seats": seats,
        "figures_draw": text["draw_rate"],
        "figures_winner": text["winner_mean_cards"],
        "figures_field": text["field_mean_cards"],
        "figures_move": text["biggest_move_mean"],
        **seat_spread(),
    }


def seat_spread() -> dict[str, str]:
    """The tips' sentence on seat order: this site's own game (4 players, default rules, red
    first) over several seeds, as `manage.py bozu_stats --runs N --write` measured it."""
    runs = load_seat_runs()
    return {
        "spread_low": _percent(runs["low"]),
        "spread_high": _percent(runs["high"]),
        "spread_runs": str(runs["runs"]),
        "spread_games": number_format(runs["games"], force_grouping=True),
    }


def poet_groups() -> list[dict[str, Any]]:
    poems = list(Poem.objects.select_related("poet").order_by("number"))
    groups = [
        (_("Noblemen (殿)"), ("noble", "emperor", "nyudo")),
        (_("Princesses (姫)"), ("princess",)),
        (_("Monks (坊主)"), ("monk",)),
        (_("Semimaru (蝉丸)"), ("semimaru",)),
    ]
    return [
        {"label": label, "poems": [p for p in poems if p.poet.poet_class in classes]}
        for label, classes in groups
    ]


@require_safe
def index(request):
    game = gamekit.registry.get("bozu")
    table = load_table()
    context = {
        "game": game,
        "settings_form": BozuSettingsForm(),
        "poet_groups": poet_groups(),
        "faq": faq_items(),
        "faq_jsonld": script_json(faq_jsonld()),
        "figures_table": {
            "rows": [{"settings": row["settings"], "shown": shown(row)} for row in table["rows"]],
            "colours": {c: gamekit.colour_label(c) for c in gamekit.SEAT_COLOURS},
            "rules": {
                rules_key(row["settings"]): describe_rules(row["settings"]) for row in table["rows"]
            },
        },
        **figures_context(Rules.from_settings({}).to_settings()),
    }
    return render(request, "bozu/index.html", context)
