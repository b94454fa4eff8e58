"""The Bozu Mekuri menu: player count and the three local rules."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bozu.rules import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    EmperorRule,
    SemimaruRule,
)

PLAYER_CHOICES = [(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]

SEMIMARU_CHOICES = [
    (SemimaruRule.MONK.value, _("As a monk: hand and Semimaru go to the field")),
    (SemimaruRule.NOBLE.value, _("As a noble: keep Semimaru")),
    (SemimaruRule.SKIP_TURN.value, _("Lose a turn: keep Semimaru and skip your next turn")),
    (
        SemimaruRule.OTHERS_TO_FIELD.value,
        _("Others' cards to the field: keep Semimaru; every other player's hand goes to the field"),
    ),
]

EMPEROR_CHOICES = [
    (EmperorRule.NOBLE.value, _("As a noble: keep it")),
    (EmperorRule.DRAW_AGAIN.value, _("Keep it and draw one more card")),
]


# The source's levels against the CPU (docs/requirements.md §2); they play alike (game.py LEVELS).
LEVEL_CHOICES = [
    ("beginner", _("Beginner (初級)")),
    ("intermediate", _("Intermediate (中級)")),
    ("advanced", _("Advanced (上級)")),
]


class BozuSettingsForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYER_CHOICES,
        coerce=int,
        initial=DEFAULT_PLAYERS,
        error_messages={
            "required": _("Choose how many players: 2, 3 or 4."),
            "invalid_choice": _("Choose 2, 3 or 4 players."),
        },
    )
    semimaru = forms.ChoiceField(
        label=_("When Semimaru is drawn"),
        choices=SEMIMARU_CHOICES,
        initial=SemimaruRule.MONK.value,
        error_messages={
            "required": _("Choose what Semimaru does."),
            "invalid_choice": _("Choose one of the listed Semimaru rules."),
        },
    )
    emperor = forms.ChoiceField(
        label=_("When an emperor is drawn"),
        choices=EMPEROR_CHOICES,
        initial=EmperorRule.NOBLE.value,
        error_messages={
            "required": _("Choose what an emperor does."),
            "invalid_choice": _("Choose one of the listed emperor rules."),
        },
    )
    # The source's three levels (games/bozu/game.py LEVELS), offered as radios with the
    # sentence that they play alike; the one posted `cpu_level` also serves the mode form.
    cpu_level = forms.ChoiceField(
        label=_("CPU level"),
        choices=LEVEL_CHOICES,
        initial="beginner",
        required=False,
    )
    princess_extra_draw = forms.BooleanField(
        label=_("Princess extra draw"),
        help_text=_("When a princess is drawn while the field is empty, draw one more card."),
        required=False,
        initial=False,
    )
