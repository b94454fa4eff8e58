"""The Bakudan Mekuri menu: how many players, and optionally a game number to replay.

A game number fixes the table (players, and which CPU or people only) as well as the deal,
so it is checked against the rest of the same POST: the player count of this form and the
platform's `play_mode` / `cpu_level` fields (ModeForm, posted alongside).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bakudan import engine
from games.bakudan.levels import CPU_LEVELS, DEFAULT_LEVEL
from games.bakudan.number import GameNumberError, decode

PLAYER_CHOICES = [(n, str(n)) for n in range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)]
DEFAULT_PLAYERS = 3

# What is wrong with a number, by GameNumberError.code.
NUMBER_ERRORS = {
    "empty": _("Enter a game number, or leave the field empty for a new deal."),
    "length": _("A game number has 5 characters, like A3N-1K, or 7, like A3N-1K02."),
    "character": _("A game number uses only the digits 0–9 and the letters A–Z (no U)."),
    "players": _("The second character of a game number is the number of players, 2 to 5."),
    "table": _("The third character of a game number is N, M or H (the CPU) or P (people only)."),
    "check": _("This game number does not add up: one of its characters is mistyped."),
}
CPU_NAMES = {
    "reckless": _("the reckless CPU"),
    "calm": _("the calm CPU"),
    "ruthless": _("the ruthless CPU"),
}


def initial_from_number(text: str) -> dict[str, object]:
    """The menu's initial values that agree with a game number (a game link pre-fills the
    menu with them). Raises GameNumberError for a bad number."""
    number = decode(text)
    return {
        "players": number.players,
        "cpu_level": number.cpu or DEFAULT_LEVEL,
        "play_mode": "cpu" if number.cpu else "hotseat",
        "number": str(number),
    }


class BakudanSettingsForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYER_CHOICES,
        coerce=int,
        initial=DEFAULT_PLAYERS,
        error_messages={
            "required": _("Choose how many players: 2 to 5."),
            "invalid_choice": _("Choose 2, 3, 4 or 5 players."),
        },
    )
    # The platform's menu draws this as radio buttons with each level's description, and the
    # one posted `cpu_level` serves both this form and the platform's mode form.
    cpu_level = forms.ChoiceField(
        label=_("CPU personality"),
        choices=[(level.key, level.label) for level in CPU_LEVELS],
        required=False,
        initial=DEFAULT_LEVEL,
        error_messages={"invalid_choice": _("Choose one of the three CPU personalities.")},
    )
    number = forms.CharField(
        label=_("Game number"),
        help_text=_("Optional: the number of a game to play the same deal again."),
        required=False,
        max_length=20,
        strip=True,
    )

    def clean_number(self) -> str:
        text = self.cleaned_data.get("number") or ""
        if not text:
            return ""
        try:
            return str(decode(text))  # the canonical spelling
        except GameNumberError as error:
            raise forms.ValidationError(NUMBER_ERRORS[error.code], code=error.code) from None

    def clean(self):
        cleaned = super().clean()
        text = cleaned.get("number")
        players = cleaned.get("players")
        if not text or players is None:
            return cleaned
        number = decode(text)
        if number.players != players:
            self.add_error(
                "number",
                forms.ValidationError(
                    _("This game number is for %(number)d players, not %(chosen)d."),
                    code="players_mismatch",
                    params={"number": number.players, "chosen": players},
                ),
            )
        mode = self.data.get("play_mode")  # the platform's ModeForm field, same POST
        if mode == "cpu":
            # No level posted: the platform plays its default, the first level.
            level = cleaned.get("cpu_level") or DEFAULT_LEVEL
            if number.cpu is None:
                self.add_error(
                    "number",
                    forms.ValidationError(
                        _("This game number is for people only, not a game against the CPU."),
                        code="table_mismatch",
                    ),
                )
            elif number.cpu != level:
                self.add_error(
                    "number",
                    forms.ValidationError(
                        _("This game number is for a game against %(cpu)s."),
                        code="table_mismatch",
                        params={"cpu": CPU_NAMES[number.cpu]},
                    ),
                )
        elif mode in ("hotseat", "friend") and number.cpu is not None:
            self.add_error(
                "number",
                forms.ValidationError(
                    _("This game number is for a game against %(cpu)s."),
                    code="table_mismatch",
                    params={"cpu": CPU_NAMES[number.cpu]},
                ),
            )
        return cleaned
