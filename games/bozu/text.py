"""Bozu Mekuri's events in words, in the reader's language (the engine only gives data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from gamekit import SEAT_COLOURS, colour_label

# How the table names each class. Nyudo are drawn as nobles on this site.
CLASS_LABELS = {
    "noble": gettext_lazy("Noble"),
    "nyudo": gettext_lazy("Noble"),
    "emperor": gettext_lazy("Emperor"),
    "princess": gettext_lazy("Princess"),
    "monk": gettext_lazy("Monk"),
    "semimaru": gettext_lazy("Semimaru"),
}


def class_label(poet_class: str) -> str:
    return str(CLASS_LABELS[poet_class])


def seat_label(seat: int) -> str:
    return colour_label(SEAT_COLOURS[seat])


def _seats(seats: Sequence[int]) -> str:
    return _(", ").join(seat_label(seat) for seat in seats)


def describe_event(event: Mapping[str, Any]) -> str:
    """One event as a sentence a player understands ("Red drew Monk 喜撰法師.")."""
    # Colour names are lowercase words ("yellow"): a sentence that opens with one needs
    # its capital (a no-op for Japanese and Chinese).
    text = _describe(event)
    return text[:1].upper() + text[1:]


def _describe(event: Mapping[str, Any]) -> str:
    kind = event["type"]
    who = seat_label(event["seat"]) if "seat" in event else ""
    if kind == "drew":
        template = (
            _("%(who)s drew an extra card: %(poet)s (%(cls)s).")
            if event["extra"]
            else _("%(who)s drew %(poet)s (%(cls)s).")
        )
        return template % {"who": who, "poet": event["poet"], "cls": class_label(event["class"])}
    if kind == "kept":
        return ngettext(
            "%(who)s keeps it: %(hand)d card in hand.",
            "%(who)s keeps it: %(hand)d cards in hand.",
            event["hand"],
        ) % {"who": who, "hand": event["hand"]}
    if kind == "to_field":
        return ngettext(
            "%(who)s puts %(cards)d card into the field.",
            "%(who)s puts %(cards)d cards into the field.",
            event["cards"],
        ) % {"who": who, "cards": event["cards"]}
    if kind == "took_field":
        return ngettext(
            "%(who)s takes the field and the princess: %(cards)d card; %(hand)d in hand.",
            "%(who)s takes the field and the princess: %(cards)d cards; %(hand)d in hand.",
            event["cards"],
        ) % {"who": who, "cards": event["cards"], "hand": event["hand"]}
    if kind == "skip_next":
        return _("%(who)s will lose their next turn.") % {"who": who}
    if kind == "others_to_field":
        return ngettext(
            "Every other player puts their hand into the field: %(cards)d card.",
            "Every other player puts their hand into the field: %(cards)d cards.",
            event["cards"],
        ) % {"cards": event["cards"]}
    if kind == "extra_draw":
        if event["reason"] == "emperor":
            return _("An emperor: %(who)s draws again.") % {"who": who}
        return _("A princess on an empty field: %(who)s draws again.") % {"who": who}
    if kind == "turn_skipped":
        return _("%(who)s loses this turn.") % {"who": who}
    if kind == "game_over":
        most = max(event["cards"])
        if event["draw"]:
            return ngettext(
                "Game over: a draw between %(seats)s with %(cards)d card each.",
                "Game over: a draw between %(seats)s with %(cards)d cards each.",
                most,
            ) % {"seats": _seats(event["winners"]), "cards": most}
        return ngettext(
            "Game over: %(seats)s wins with %(cards)d card.",
            "Game over: %(seats)s wins with %(cards)d cards.",
            most,
        ) % {"seats": _seats(event["winners"]), "cards": most}
    raise ValueError(f"unknown Bozu Mekuri event: {kind!r}")
