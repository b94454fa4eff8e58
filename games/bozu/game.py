"""Bozu Mekuri as a plugin: the platform's contract over the pure engine in engine.py."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import CpuLevel, GameOverError, Mode, NotYourTurnError, SeatSpec
from games.bozu import engine
from games.bozu.engine import BozuState
from games.bozu.forms import LEVEL_CHOICES, BozuSettingsForm
from games.bozu.rules import EmperorRule, Rules, SemimaruRule
from games.bozu.text import describe_event

# Drawing is pure luck: the only action is "draw the top card", so there is nothing for
# a CPU to decide. The menu offers the source's three levels (初級・中級・上級) and says
# honestly that they play exactly alike: same move, same pace (the platform's cpu_delay_ms);
# the level only names the table.
LEVELS = tuple(key for key, _label in LEVEL_CHOICES)
ALIKE = _("Draws when its turn comes, like every level: drawing is pure luck.")


@gamekit.register
class BozuMekuri(gamekit.Game):
    slug = "bozu"
    name = _("Bozu Mekuri")
    summary = _("Draw poet cards in turn: monks empty your hand, princesses take the field.")
    min_players = 2
    max_players = 4
    modes = (Mode.CPU, Mode.HOTSEAT, Mode.FRIEND)
    cpu_levels = tuple(CpuLevel(key, label, ALIKE) for key, label in LEVEL_CHOICES)
    settings_form = BozuSettingsForm
    action_schema = {"draw": ()}  # the only move there is; anything else is not logged
    telemetry_settings = {
        "semimaru": tuple(rule.value for rule in SemimaruRule),
        "emperor": tuple(rule.value for rule in EmperorRule),
        "princess_extra_draw": ("on", "off"),
    }
    order = 10

    # --- settings -----------------------------------------------------------

    def settings_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        return Rules.from_settings(
            {
                "players": int(cleaned_data["players"]),
                "semimaru": cleaned_data["semimaru"],
                "emperor": cleaned_data["emperor"],
                "princess_extra_draw": bool(cleaned_data.get("princess_extra_draw")),
            }
        ).to_settings()

    def player_count(self, settings: Mapping[str, Any]) -> int:
        return Rules.from_settings(settings).players

    # --- the engine -----------------------------------------------------------

    def new_state(
        self, settings: Mapping[str, Any], seats: Sequence[SeatSpec], seed: int
    ) -> BozuState:
        rules = Rules.from_settings(settings)
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} players need as many seats, not {len(seats)}")
        return engine.deal(rules, seed)

    def to_act(self, state: BozuState) -> tuple[int, ...]:
        return () if state.to_act is None else (state.to_act,)

    def legal_actions(self, state: BozuState, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def apply(
        self, state: BozuState, seat: int, action: Mapping[str, Any]
    ) -> tuple[BozuState, list[dict[str, Any]]]:
        return engine.apply(state, seat, action)

    def view(self, state: BozuState, seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def result(self, state: BozuState) -> dict[str, Any] | None:
        return engine.result(state)

    def cpu_policy(
        self, view: Mapping[str, Any], seat: int, level: str, rng: random.Random
    ) -> dict[str, Any]:
        """The CPU draws when it is its turn: there is no other move, at any level (LEVELS)."""
        if level not in LEVELS:
            raise ValueError(f"unknown CPU level {level!r}")
        if view["over"]:
            raise GameOverError("the game is over")
        if view["to_act"] != seat:
            raise NotYourTurnError(f"it is seat {view['to_act']}'s turn, not seat {seat}'s")
        return dict(engine.DRAW)

    # --- presentation ---------------------------------------------------------

    def describe_events(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        return [describe_event(event) for event in events]

    # --- storage --------------------------------------------------------------

    def dump_state(self, state: BozuState) -> dict[str, Any]:
        return engine.dump(state)

    def load_state(self, data: Any) -> BozuState:
        return engine.load(data)
