"""Bakudan Mekuri's events in words, in the reader's language (the engine only gives data).

Events arrive already filtered for the reader: a private event is either the full one (the
reader may know the card) or its public counterpart, or {"type": "hidden"}.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from gamekit import SEAT_COLOURS, colour_label

KIND_LABELS = {
    "bomb": gettext_lazy("Bomb"),
    "nipper": gettext_lazy("Nipper"),
    "peek": gettext_lazy("Peek"),
    "dodge": gettext_lazy("Dodge"),
    "bottom": gettext_lazy("Bottom draw"),
    "push": gettext_lazy("Push"),
    "snatch": gettext_lazy("Snatch"),
    "shield": gettext_lazy("Shield"),
    "shuffle": gettext_lazy("Shuffle"),
    "blank": gettext_lazy("Blank"),
}


def kind_label(kind: str) -> str:
    return str(KIND_LABELS[kind])


def seat_label(seat: int) -> str:
    return colour_label(SEAT_COLOURS[seat])


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe_event(event: Mapping[str, Any]) -> str:
    """One event as a sentence ("Blue drew a card.")."""
    return _cap(_sentence(event))


def _sentence(event: Mapping[str, Any]) -> str:
    kind = event["type"]
    who = seat_label(event["seat"]) if "seat" in event else ""
    if kind == "played":
        if event["kind"] == "snatch":
            return _("%(who)s plays Snatch on %(target)s.") % {
                "who": who,
                "target": seat_label(event["target"]),
            }
        return _("%(who)s plays %(card)s.") % {"who": who, "card": kind_label(event["kind"])}
    if kind == "peeked":
        if "cards" in event:
            seen = _(", ").join(kind_label(c["card"]["kind"]) for c in event["cards"])
            return _("%(who)s peeks at the top of the deck: %(cards)s.") % {
                "who": who,
                "cards": seen,
            }
        return ngettext(
            "%(who)s peeks at the top card.",
            "%(who)s peeks at the top %(count)d cards.",
            event["count"],
        ) % {"who": who, "count": event["count"]}
    if kind == "shuffled":
        return _("%(who)s shuffles the deck. Every note is wiped.") % {"who": who}
    if kind == "snatched":
        target = seat_label(event["target"])
        if "card" in event:
            return _("%(who)s snatches %(card)s from %(target)s.") % {
                "who": who,
                "card": kind_label(event["card"]["kind"]),
                "target": target,
            }
        return _("%(who)s snatches a card from %(target)s.") % {"who": who, "target": target}
    if kind == "shield_blocked":
        return _("%(who)s's shield blocks the %(card)s from %(by)s.") % {
            "who": who,
            "card": kind_label(event["kind"]),
            "by": seat_label(event["by"]),
        }
    if kind == "pushed":
        return _("%(who)s pushes the turn onto %(target)s: two draws.") % {
            "who": who,
            "target": seat_label(event["target"]),
        }
    if kind == "drew_card":
        if "card" in event:
            template = (
                _("%(who)s draws %(card)s from the bottom.")
                if event["from"] == "bottom"
                else _("%(who)s draws %(card)s.")
            )
            return template % {"who": who, "card": kind_label(event["card"]["kind"])}
        if event["from"] == "bottom":
            return _("%(who)s draws a card from the bottom.") % {"who": who}
        return _("%(who)s draws a card.") % {"who": who}
    if kind == "drew_bomb":
        if event["nipper"]:
            return _("%(who)s draws a bomb and cuts it with a nipper.") % {"who": who}
        return _("%(who)s draws a bomb and has no nipper.") % {"who": who}
    if kind == "bomb_placed":
        if "position" in event:
            return _("%(who)s puts the bomb back: %(where)s.") % {
                "who": who,
                "where": _where(event["where"], event["position"]),
            }
        return _("%(who)s puts the bomb back into the deck. Every other note is wiped.") % {
            "who": who
        }
    if kind == "eliminated":
        return _("%(who)s is out (place %(place)d).") % {"who": who, "place": event["place"]}
    if kind == "won":
        return _("%(who)s is the last one standing and wins!") % {"who": who}
    if kind == "turn":
        return ngettext(
            "%(who)s's turn.",
            "%(who)s's turn: %(owed)d draws to go.",
            event["owed"],
        ) % {"who": who, "owed": event["owed"]}
    if kind == "bomb_removed":
        return _("A bomb leaves the deck with the player. Every note is wiped.")
    if kind == "fast_forward":
        return _("No one is left to play against the CPU: the CPUs play the game out.")
    return "…"  # "hidden" or anything a newer engine adds


def _where(where: str, position: int) -> str:
    if where == "top":
        return _("on top")
    if where == "bottom":
        return _("at the bottom")
    under = ngettext("under %(count)d card", "under %(count)d cards", position) % {
        "count": position
    }
    if where == "random":
        return _("at random, %(under)s") % {"under": under}
    return under
