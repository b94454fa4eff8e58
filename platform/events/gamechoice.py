"""What an event may be played at, and the rating bands of its divisions.

An event's settings are made by the game's own settings form (so they are exactly what a
friend room would accept), from the few fields the event form asks for (the lobby's
`pools.game_settings`: the form's defaults for the rest). Karuta competitive and chirashi
for two are played one against one; chirashi for three or four, genpei 2 v 2, Bozu for
four and Bakudan for three to five are table games: a board is a table of that many seats
(docs/events.md, "Tables")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

import gamekit
from lobby.pools import SettingsRefused as FormRefused
from lobby.pools import game_settings


@dataclass(frozen=True)
class Choice:
    label: Any  # lazy translation
    game: str
    posted: Mapping[str, str]  # what the event form's choice posts to the game's form
    seats: int = 2
    teams: tuple[int, ...] = ()  # genpei: team sizes (the first teams[0] seats, then the rest)
    paced: bool = False  # karuta: the event form's pace and memorisation time apply

    @property
    def table(self) -> bool:
        return self.seats > 2


CHOICES = {
    "karuta-competitive": Choice(
        _("Karuta, competitive (one against one)"), "karuta", {"mode": "competitive"}, paced=True
    ),
    "karuta-chirashi": Choice(
        _("Karuta, chirashi for two"), "karuta", {"mode": "chirashi", "players": "2"}, paced=True
    ),
    "karuta-chirashi-3": Choice(
        _("Karuta, chirashi (tables of three)"),
        "karuta",
        {"mode": "chirashi", "players": "3"},
        seats=3,
        paced=True,
    ),
    "karuta-chirashi-4": Choice(
        _("Karuta, chirashi (tables of four)"),
        "karuta",
        {"mode": "chirashi", "players": "4"},
        seats=4,
        paced=True,
    ),
    "karuta-genpei-2v2": Choice(
        _("Karuta, genpei-sen 2 against 2 (tables of four)"),
        "karuta",
        {"mode": "genpei", "team_size": "2", "enemy_size": "2"},
        seats=4,
        teams=(2, 2),
        paced=True,
    ),
    "bozu-4": Choice(_("Bozu Mekuri (tables of four)"), "bozu", {"players": "4"}, seats=4),
    "bakudan-3": Choice(_("Bakudan Mekuri (tables of three)"), "bakudan", {"players": "3"}, 3),
    "bakudan-4": Choice(_("Bakudan Mekuri (tables of four)"), "bakudan", {"players": "4"}, 4),
    "bakudan-5": Choice(_("Bakudan Mekuri (tables of five)"), "bakudan", {"players": "5"}, 5),
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


def choice_of(key: str) -> Choice:
    return CHOICES[key]


def build_settings(choice: str, pace: str, memorise_seconds: str) -> tuple[str, dict[str, Any]]:
    """(game slug, settings) through the game's own settings form, or SettingsRefused."""
    chosen = CHOICES[choice]
    posted = dict(chosen.posted)
    if chosen.paced:
        posted.update(pace=pace, memorise_seconds=memorise_seconds)
    try:
        settings = game_settings(chosen.game, posted)
    except FormRefused as refused:
        raise SettingsRefused(refused.errors) from None
    if gamekit.registry.get(chosen.game).player_count(settings) != chosen.seats:
        raise SettingsRefused({"players": [str(chosen.seats)]})
    return chosen.game, settings


def in_division(division: str, rating: float) -> bool:
    if not division:
        return True
    low, high = DIVISIONS[division]
    return (low is None or rating >= low) and (high is None or rating < high)
