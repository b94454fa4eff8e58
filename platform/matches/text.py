"""The room's own events (joins, start, resignations) in words, in the active language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from gamekit import SEAT_COLOURS, colour_label


def _seat(event: Mapping[str, Any]) -> str:
    name = colour_label(SEAT_COLOURS[event["seat"]])
    return name[:1].upper() + name[1:]


def describe_room_event(event: Mapping[str, Any]) -> str | None:
    kind = event.get("type")
    if kind == "started":
        return _("The game starts.")
    if kind == "joined":
        return _("%(seat)s has taken a seat.") % {"seat": _seat(event)}
    if kind == "resigned":
        return _("%(seat)s resigned.") % {"seat": _seat(event)}
    if kind == "left":
        return _("%(seat)s left the table: the CPU plays that seat now.") % {"seat": _seat(event)}
    if kind == "out":
        texts = {
            "leave": _("%(seat)s left the game and is out."),
            "resign": _("%(seat)s resigned and is out."),
            "away": _("%(seat)s was away too long and is out."),
        }
        return texts.get(event.get("reason"), texts["leave"]) % {"seat": _seat(event)}
    if kind == "seats_swapped":
        first, second = (_seat({"seat": seat}) for seat in event["seats"])
        return _("The host moved %(first)s and %(second)s: each now plays on the other's side.") % {
            "first": first,
            "second": second,
        }
    if kind == "invite_changed":
        return _("A new invitation URL was made; the old one no longer works.")
    if kind == "rematch":
        return _("A new game is ready.")
    if kind == "refused" and isinstance(event.get("seat"), int):
        return _("%(seat)s: a move was refused.") % {"seat": _seat(event)}
    return None


def describe_room_events(events: Iterable[Mapping[str, Any]]) -> list[str]:
    return [text for text in map(describe_room_event, events) if text]
