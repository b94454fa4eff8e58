"""The platform's half of a game's menu form: the mode and the CPU level."""

from __future__ import annotations

from django import forms
from django.utils.translation import pgettext_lazy

from gamekit import Game


class ModeForm(forms.Form):
    """Posted together with the game's own settings form, so its names must not clash
    with a game's fields (karuta has its own "mode"): hence "play_mode"."""

    play_mode = forms.ChoiceField(label=pgettext_lazy("match room", "Mode"))
    cpu_level = forms.ChoiceField(label=pgettext_lazy("match room", "CPU level"), required=False)
    # A friend room that counts toward ratings: only a signed-in person may make one.
    rated = forms.BooleanField(label=pgettext_lazy("match room", "Rated"), required=False)

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["play_mode"].choices = [(m.value, m.value) for m in game.modes]
        self.fields["cpu_level"].choices = [("", "")] + [
            (level.key, level.label) for level in game.cpu_levels
        ]
