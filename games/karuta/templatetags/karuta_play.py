"""Template helpers for the karuta play screen."""

from __future__ import annotations

from django import template

from poems import catalogue

register = template.Library()


@register.simple_tag
def karuta_cards() -> dict[str, dict[str, str]]:
    """Every card's printed faces for the play screen: the torifuda (lower verse without
    voicing marks, phrases split by spaces) and the printed upper verse (for kimariji).
    All 100 are sent, so the page never hints at which poems are in play or read next."""
    return {
        str(p.number): {"tori": p.torifuda, "kami": p.kami_kana_flat} for p in catalogue.poems()
    }
