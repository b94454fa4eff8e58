"""The three CPU personalities as the menu shows them (labels and one-line descriptions)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gamekit import CpuLevel
from games.bakudan import cpu

CPU_LEVELS = (
    CpuLevel(
        cpu.RECKLESS,
        _("Reckless (無謀)"),
        _("Plays cards on a whim and puts bombs back anywhere."),
    ),
    CpuLevel(
        cpu.CALM,
        _("Calm (冷静)"),
        _(
            "Dodges a bomb it knows is on top, peeks when danger is high, snatches when it "
            "has no nipper and keeps its shield for pushes."
        ),
    ),
    CpuLevel(
        cpu.RUTHLESS,
        _("Ruthless (非情)"),
        _("Puts bombs back on top and pushes its turns onto you."),
    ),
)
DEFAULT_LEVEL = CPU_LEVELS[0].key  # the platform's default too (its first level)
