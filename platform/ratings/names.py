"""Each rating's name as players read it (translated)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ratings.rules import KEYS

KEY_ORDER = KEYS
NAMES = {
    "karuta-competitive": _("Karuta: competitive (one against one)"),
    "karuta-chirashi": _("Karuta: chirashi-dori"),
    "karuta-genpei": _("Karuta: genpei-sen (teams)"),
    "bozu": _("Bozu Mekuri"),
    "bakudan": _("Bakudan Mekuri"),
}
assert set(NAMES) == set(KEYS)


def name(key: str) -> str:
    return NAMES[key]
