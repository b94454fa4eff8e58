"""Seat colours in turn order. Red always sits first and moves first."""

# Eight: karuta's genpei seats two teams of four.
SEAT_COLOURS: tuple[str, ...] = (
    "red",
    "blue",
    "green",
    "yellow",
    "purple",
    "orange",
    "teal",
    "pink",
)


def colour_label(colour: str) -> str:
    """The colour's name in the active language (colours are never shown by hue alone)."""
    # Imported here so that `import gamekit` stays free of Django for pure engines.
    from django.utils.translation import gettext

    # One lookup, not five: each gettext reads the active language (a context-local) and
    # the catalogue, and a seat's label is asked for by every log line and seat list.
    if colour == "red":
        return gettext("red")
    if colour == "blue":
        return gettext("blue")
    if colour == "green":
        return gettext("green")
    if colour == "yellow":
        return gettext("yellow")
    if colour == "purple":
        return gettext("purple")
    if colour == "orange":
        return gettext("orange")
    if colour == "teal":
        return gettext("teal")
    if colour == "pink":
        return gettext("pink")
    raise KeyError(colour)
