"""Template helpers for the Bozu Mekuri play screen."""

from __future__ import annotations

from django import template

from poems import catalogue

register = template.Library()


@register.simple_tag
def bozu_cards() -> dict[str, dict[str, str]]:
    """Every card's face for the play screen: the poet, the reading of the name and the
    class. The view sends hands as poem numbers; the page draws each pile's top card from
    this table. All 100 are sent: in Bozu every drawn card is face up anyway."""
    return {
        str(p.number): {"poet": p.poet, "kana": p.poet_kana, "class": p.poet_class.value}
        for p in catalogue.poems()
    }
