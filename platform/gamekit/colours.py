"""Seat colours in turn order. Red always sits first and moves first."""

from django.utils.translation import gettext_lazy as _

SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")

_LABELS = {
    "red": _("red"),
    "blue": _("blue"),
    "green": _("green"),
    "yellow": _("yellow"),
    "purple": _("purple"),
}


def colour_label(colour: str) -> str:
    """The colour's name in the active language (colours are never shown by hue alone)."""
    return str(_LABELS[colour])
