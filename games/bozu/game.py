"""Bozu Mekuri as a plugin. The engine arrives with its own issue."""

from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import Mode


@gamekit.register
class BozuMekuri(gamekit.Game):
    slug = "bozu"
    name = _("Bozu Mekuri")
    summary = _("Draw poet cards in turn: monks empty your hand, princesses take the field.")
    min_players = 2
    max_players = 4
    modes = (Mode.CPU, Mode.HOTSEAT, Mode.FRIEND)
    order = 10
