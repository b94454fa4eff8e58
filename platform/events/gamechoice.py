"""What an event may be played at, and the rating bands of its divisions.

An event's settings are made by the game's own settings form (so they are exactly what a
friend room would accept), from the few fields the event form asks for. Boards are one
against one: karuta competitive (at a chosen pace) and chirashi for two. The table games
(genpei 2v2, Bozu for four, Bakudan) are not offered yet (docs/events.md, "Not yet")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

import gamekit

CHOICES = {
    "karuta-competitive": (_("Karuta, competitive (one against one)"), "karuta", "competitive"),
    "karuta-chirashi": (_("Karuta, chirashi for two"), "karuta", "chirashi"),
}

# Divisions by rating on the event's rating (A best). A band is [low, high): an entrant's
# current rating when they join must fall in it.
DIVISIONS = {
    "A": (1900.0, None),
    "B": (1700.0, 1900.0),
    "C": (1500.0, 1700.0),
    "D": (1300.0, 1500.0),
    "E": (None, 1300.0),
}


class SettingsRefused(ValueError):
    def __init__(self, errors: Mapping[str, Any]):
        super().__init__("the game refused these settings")
        self.errors = errors


def build_settings(choice: str, pace: str, memorise_seconds: str) -> tuple[str, dict[str, Any]]:
    """(game slug, settings) through the game's own settings form, or SettingsRefused."""
    _label, slug, mode = CHOICES[choice]
    game = gamekit.registry.get(slug)
    form = game.settings_form(
        data={
            "mode": mode,
            "players": "2",
            "cpu_level": game.cpu_levels[0].key,
            "pace": pace,
            "memorise_seconds": memorise_seconds,
        }
    )
    if not form.is_valid():
        raise SettingsRefused(form.errors)
    settings = game.settings_from_form(form.cleaned_data)
    if game.player_count(settings) != 2:
        raise SettingsRefused({"players": ["two"]})
    return slug, settings


def in_division(division: str, rating: float) -> bool:
    if not division:
        return True
    low, high = DIVISIONS[division]
    return (low is None or rating >= low) and (high is None or rating < high)
