"""The quick-pairing pools (RULES §10): one per kind of game a person can ask for in one
press, with the settings its matches get, built through the game's own settings form so
that a pool can only ever hold settings the game accepts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext_lazy as _

import gamekit
from lobby import rating


@dataclass(frozen=True)
class Pool:
    key: str
    game: str
    settings: Mapping[str, Any]
    seats: int
    rated: bool
    label: Any  # what the button says (lazy translation)
    teams: tuple[int, ...] = ()  # team sizes (genpei): a table is seated as balanced teams

    @property
    def rating_key(self) -> str | None:
        return rating.rating_key(self.game, "friend", dict(self.settings))


class SettingsRefused(ValueError):
    """The game's own settings form refused these settings; `errors` is its error list."""

    def __init__(self, errors: Any) -> None:
        super().__init__("settings refused")
        self.errors = errors


def form_defaults(form_class: type) -> dict[str, Any]:
    """The form's initial values, as a browser would post them (unticked boxes absent)."""
    data: dict[str, Any] = {}
    for name, field in form_class.base_fields.items():
        initial = field.initial() if callable(field.initial) else field.initial
        if initial is None or initial is False:
            continue
        data[name] = "on" if initial is True else str(initial)
    return data


def game_settings(game_slug: str, posted: Mapping[str, Any]) -> dict[str, Any]:
    """The game's settings for a lobby match from posted form data (the form's defaults for
    fields left out), or SettingsRefused carrying the form's own errors."""
    game = gamekit.registry.get(game_slug)
    if game.settings_form is None:
        return game.settings_from_form({})
    form = game.settings_form(data={**form_defaults(game.settings_form), **posted})
    if not form.is_valid():
        raise SettingsRefused(form.errors)
    return game.settings_from_form(form.cleaned_data)


@cache
def all_pools() -> dict[str, Pool]:
    from games.karuta.forms import pace_choices

    pools: list[Pool] = []
    for rated in (True, False):
        kind = "rated" if rated else "casual"
        for pace, _label in pace_choices():
            pools.append(
                Pool(
                    f"karuta-competitive-{pace}-{kind}",
                    "karuta",
                    game_settings("karuta", {"mode": "competitive", "pace": pace}),
                    2,
                    rated,
                    _("Karuta competitive"),
                )
            )
        for players in (2, 3, 4):
            pools.append(
                Pool(
                    f"karuta-chirashi-{players}-{kind}",
                    "karuta",
                    game_settings("karuta", {"mode": "chirashi", "players": str(players)}),
                    players,
                    rated,
                    _("Chirashi"),
                )
            )
        pools.append(
            Pool(f"bozu-4-{kind}", "bozu", game_settings("bozu", {"players": "4"}), 4, rated,
                 _("Bozu Mekuri"))
        )  # fmt: skip
        pools.append(
            Pool(
                f"karuta-genpei-2v2-{kind}",
                "karuta",
                game_settings("karuta", {"mode": "genpei", "team_size": "2", "enemy_size": "2"}),
                4,
                rated,
                _("Genpei-sen 2 v 2"),
                teams=(2, 2),
            )
        )
        for players in (3, 4, 5):
            pools.append(
                Pool(
                    f"bakudan-{players}-{kind}",
                    "bakudan",
                    game_settings("bakudan", {"players": str(players)}),
                    players,
                    rated,
                    _("Bakudan Mekuri"),
                )
            )
    return {pool.key: pool for pool in pools}


def get(key: Any) -> Pool | None:
    return all_pools().get(key) if isinstance(key, str) else None


def describe(game: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that matter in a list line: mode, players, pace (JSON-able words)."""
    line: dict[str, Any] = {"players": settings.get("players")}
    if game == "karuta":
        line["mode"] = settings.get("mode")
        if settings.get("mode") != "solo":
            line["pace"] = str(settings.get("pace"))
    return line
