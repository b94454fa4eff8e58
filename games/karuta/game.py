"""Hyakunin Isshu karuta as a plugin. The engine arrives with its own issue."""

from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import Mode


@gamekit.register
class Karuta(gamekit.Game):
    slug = "karuta"
    name = _("Hyakunin Isshu karuta")
    summary = _("Hear the upper verse, find the lower verse first: competitive, chirashi, solo.")
    min_players = 1
    max_players = 4
    modes = (Mode.CPU, Mode.SOLO)
    realtime = True
    order = 20
