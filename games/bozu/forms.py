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
    # No CPU level to choose (games/bozu/game.py ONE_CPU): posted hidden, so the menu shows
    # no selector for levels that could only play alike.
    cpu_level = forms.CharField(widget=forms.HiddenInput, initial="beginner", required=False)
    princess_extra_draw = forms.BooleanField(
        label=_("Princess extra draw"),
        help_text=_("When a princess is drawn while the field is empty, draw one more card."),
        required=False,
        initial=False,
    )
