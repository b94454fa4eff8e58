"""The three CPU personalities as the menu and the rules show them: labels, and descriptions
whose figures are what `manage.py bakudan_stats --write` measured (data/cpu.json), filled in
when the page is drawn."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from gamekit import CpuLevel
from games.bakudan import cpu, figures

DESCRIPTIONS = {
    cpu.RECKLESS: _(
        "Plays cards on a whim and puts bombs back anywhere: on top in %(top)s of its "
        "placements, at the bottom in %(bottom)s, elsewhere the rest. It escapes a bomb it "
        "knows is on top only %(escape)s of the time."
    ),
    cpu.CALM: _(
        "Puts a defused bomb back where it is safest for itself, at the bottom (%(bottom)s of "
        "its placements), never as an attack. It escapes a bomb it knows is on top "
        "(%(escape)s of the time), peeks once the danger reaches 25%% (%(peek_high)s of its "
        "chances), snatches when it has no nipper and keeps its shield for pushes."
    ),
    cpu.RUTHLESS: _(
        "Puts bombs back on top (%(top)s of its placements) and pushes its turns onto you: "
        "%(push_person)s of the turns it ends just before you with a push in hand."
    ),
}


def _describe(level: str) -> str:
    return str(DESCRIPTIONS[level]) % figures.level_figures(level)


describe = lazy(_describe, str)

CPU_LEVELS = (
    CpuLevel(cpu.RECKLESS, _("Reckless (無謀)"), describe(cpu.RECKLESS)),
    CpuLevel(cpu.CALM, _("Calm (冷静)"), describe(cpu.CALM)),
    CpuLevel(cpu.RUTHLESS, _("Ruthless (非情)"), describe(cpu.RUTHLESS)),
)
DEFAULT_LEVEL = CPU_LEVELS[0].key  # the platform's default too (its first level)
