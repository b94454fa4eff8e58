"""Bozu Mekuri's options as plain data: one frozen `Rules` read by one engine.

Pure Python (no Django): the engine, the simulator and the figures table all
read the same settings dict through `Rules.from_settings`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from itertools import product
from typing import Any

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 4


class SemimaruRule(StrEnum):
    MONK = "monk"  # hand and Semimaru go to the field (default)
    NOBLE = "noble"  # keep Semimaru
    SKIP_TURN = "skip_turn"  # keep Semimaru and lose your next turn
    OTHERS_TO_FIELD = "others_to_field"  # keep Semimaru; every other hand goes to the field


class EmperorRule(StrEnum):
    NOBLE = "noble"  # keep it (default)
    DRAW_AGAIN = "draw_again"  # keep it and draw one more card


class InvalidSettingsError(ValueError):
    """The settings dict names an unknown option or an out-of-range value."""


@dataclass(frozen=True)
class Rules:
    players: int = DEFAULT_PLAYERS
    semimaru: SemimaruRule = SemimaruRule.MONK
    emperor: EmperorRule = EmperorRule.NOBLE
    princess_extra_draw: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise InvalidSettingsError(f"players must be an integer, not {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidSettingsError(
                f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}"
            )
        try:
            object.__setattr__(self, "semimaru", SemimaruRule(self.semimaru))
            object.__setattr__(self, "emperor", EmperorRule(self.emperor))
        except ValueError as error:
            raise InvalidSettingsError(str(error)) from None
        if not isinstance(self.princess_extra_draw, bool):
            raise InvalidSettingsError("princess_extra_draw must be true or false")

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any] | None) -> Rules:
        """Rules from the stored settings dict; missing keys take the defaults."""
        settings = dict(settings or {})
        unknown = set(settings) - {"players", "semimaru", "emperor", "princess_extra_draw"}
        if unknown:
            raise InvalidSettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
        return cls(**settings)

    def to_settings(self) -> dict[str, Any]:
        """The JSON-able settings dict the platform stores (a fresh dict each call)."""
        return dict(_settings_of(self))


def all_rules() -> list[Rules]:
    """The 48 combinations: 3 player counts x 4 Semimaru rules x 2 emperor rules x 2."""
    return [
        Rules(players, semimaru, emperor, princess)
        for players, semimaru, emperor, princess in product(
            range(MIN_PLAYERS, MAX_PLAYERS + 1), SemimaruRule, EmperorRule, (False, True)
        )
    ]


@functools.cache
def _settings_of(rules: Rules) -> dict[str, Any]:
    # Every view carries the settings; there are only 48 rule combinations to convert.
    data = asdict(rules)
    data["semimaru"] = rules.semimaru.value
    data["emperor"] = rules.emperor.value
    return data
