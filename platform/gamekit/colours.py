"""Seat colours in turn order. Red always sits first and moves first."""

SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")


def colour_label(colour: str) -> str:
    """The colour's name in the active language (colours are never shown by hue alone)."""
    # Imported here so that `import gamekit` stays free of Django for pure engines.
    from django.utils.translation import gettext

    labels = {
        "red": gettext("red"),
        "blue": gettext("blue"),
        "green": gettext("green"),
        "yellow": gettext("yellow"),
        "purple": gettext("purple"),
    }
    return labels[colour]
