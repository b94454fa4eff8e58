"""Karuta's events in words, in the reader's language (the engine only gives data).

Touches and passes get no sentence: a touch event names neither card nor time (the view
shows the touch once its time is reached, and the reading's result says who took what).
A "reading" event never names the poem: it is sent before the poem is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gamekit import SEAT_COLOURS, colour_label
from poems import catalogue


def seat_label(seat: int) -> str:
    label = colour_label(SEAT_COLOURS[seat])
    return label[:1].upper() + label[1:]


def team_label(team: int) -> str:
    """Genpei's two teams, named after the clans the game is named after."""
    return _("Genji") if team == 0 else _("Heike")


def card_label(poem: int) -> str:
    """A torifuda as players name it: its first phrase, in corner brackets."""
    first = catalogue.poem(poem).torifuda.split()[0]
    return f"「{first}…」"


def seconds(ms: int | float) -> str:
    return f"{ms / 1000:.2f}"


def _taken(event: Mapping[str, Any]) -> str:
    after = event.get("after_kimariji")
    values = {"who": seat_label(event["taker"]), "card": card_label(event["poem"])}
    if after is None:
        return _("%(who)s took %(card)s.") % values
    if after < 0:
        return _("%(who)s took %(card)s before the deciding sound.") % values
    return _("%(who)s took %(card)s, %(s)s s after the deciding sound.") % {
        **values,
        "s": seconds(after),
    }


def _competitive_result(event: Mapping[str, Any]) -> list[str]:
    card = card_label(event["poem"])
    lines: list[str] = []
    if event["dead"]:
        lines.append(_("A dead card was read: %(card)s is on nobody's side.") % {"card": card})
    elif event["taker"] is not None:
        lines.append(_taken(event))
        if event["simultaneous"]:
            lines.append(_("Both touched it at the same moment: it goes to the side it lay on."))
    elif event["untouched"]:
        lines.append(
            _("Nobody took %(card)s: it leaves %(who)s's side.")
            % {"card": card, "who": seat_label(event["side"])}
        )
    offenders = [seat for seat, n in enumerate(event["otetsuki"]) if n]
    if event["tomo_otetsu"]:
        lines.append(_("Both players committed otetsuki (tomo-otetsu): no penalty."))
    else:
        for seat in offenders:
            if event["otetsuki"][seat] > 1:
                lines.append(_("%(who)s: double otetsuki.") % {"who": seat_label(seat)})
            else:
                lines.append(_("%(who)s: otetsuki.") % {"who": seat_label(seat)})
    if event["cancelled"]:
        lines.append(_("The send and the penalty cancel out."))
    send = event.get("send")
    if send:
        values = {
            "who": seat_label(send["from"]),
            "to": seat_label(send["to"]),
            "n": send["count"],
        }
        if event["dabu"]:
            # Named by its cause: otetsuki, and the card on the offender's own side was taken.
            lines.append(
                _("Dabu: %(who)s committed otetsuki and lost a card on their own side.")
                % {"who": seat_label(event["side"])}
            )
        lines.append(
            ngettext(
                "%(who)s sends %(to)s %(n)d card.",
                "%(who)s sends %(to)s %(n)d cards.",
                send["count"],
            )
            % values
        )
    return lines


def _genpei_result(event: Mapping[str, Any]) -> list[str]:
    """A genpei reading: the taker and their team, each seat's otetsuki, the team's send."""
    card = card_label(event["poem"])
    lines: list[str] = []
    if event["dead"]:
        lines.append(_("A dead card was read: %(card)s is on nobody's side.") % {"card": card})
    elif event["taker"] is not None:
        lines.append(_taken(event))
        if event["simultaneous"]:
            lines.append(_("Touched at the same moment: it goes to the side it lay on."))
    elif event["untouched"]:
        lines.append(
            _("Nobody took %(card)s: it leaves the %(team)s side.")
            % {"card": card, "team": team_label(event["side"])}
        )
    if event["tomo_otetsu"]:
        lines.append(_("Both teams committed otetsuki (tomo-otetsu): no penalty."))
    else:
        for seat, n in enumerate(event["otetsuki"]):
            if n > 1:
                lines.append(_("%(who)s: double otetsuki.") % {"who": seat_label(seat)})
            elif n:
                lines.append(_("%(who)s: otetsuki.") % {"who": seat_label(seat)})
    if event["cancelled"]:
        lines.append(_("The send and the penalty cancel out."))
    send = event.get("send")
    if send:
        lines.append(
            ngettext(
                "The %(team)s send the %(to)s %(n)d card, chosen by %(who)s.",
                "The %(team)s send the %(to)s %(n)d cards, chosen by %(who)s.",
                send["count"],
            )
            % {
                "team": team_label(send["from"]),
                "to": team_label(send["to"]),
                "n": send["count"],
                "who": seat_label(send["by"]),
            }
        )
    return lines


def _chirashi_result(event: Mapping[str, Any]) -> list[str]:
    card = card_label(event["poem"])
    lines = (
        [_taken(event)]
        if event["taker"] is not None
        else [_("Nobody took %(card)s.") % {"card": card}]
    )
    for seat, n in enumerate(event["otetsuki"]):
        if n:
            lines.append(_("%(who)s: otetsuki.") % {"who": seat_label(seat)})
    for seat in event["sit_out"]:
        lines.append(_("%(who)s sits out the next poem.") % {"who": seat_label(seat)})
    for seat, returned in event["returned"]:
        lines.append(
            _("%(who)s puts %(card)s back on the field; its poem will be read again.")
            % {"who": seat_label(seat), "card": card_label(returned)}
        )
    return lines


def _solo_result(event: Mapping[str, Any]) -> list[str]:
    card = card_label(event["poem"])
    lines = []
    if event["t"] is None:
        lines.append(_("You missed %(card)s.") % {"card": card})
    else:
        lines.append(
            _("You took %(card)s in %(t)s s, %(after)s s after the deciding sound.")
            % {"card": card, "t": seconds(event["t"]), "after": seconds(event["after_kimariji"])}
        )
    wrong = len(event["wrong"])
    if wrong:
        lines.append(
            ngettext("%(n)d wrong card touched.", "%(n)d wrong cards touched.", wrong)
            % {"n": wrong}
        )
    return lines


def _over(event: Mapping[str, Any]) -> list[str]:
    scores, winner = event.get("scores") or [], event.get("winner")
    if event.get("winner_team") is not None:
        return [
            ngettext(
                "The %(team)s win: their side is empty, %(n)d card left on the other.",
                "The %(team)s win: their side is empty, %(n)d cards left on the other.",
                event["margin"],
            )
            % {"team": team_label(event["winner_team"]), "n": event["margin"]}
        ]
    if event.get("score_kind") == "cards_left":
        return [_("%(who)s wins: their side is empty.") % {"who": seat_label(winner)}]
    if len(scores) == 1:
        return [_("Practice finished.")]
    if winner is None:
        top = max(scores)
        return [
            ngettext(
                "The game ends in a tie at %(n)d card.",
                "The game ends in a tie at %(n)d cards.",
                top,
            )
            % {"n": top}
        ]
    return [
        ngettext("%(who)s wins with %(n)d card.", "%(who)s wins with %(n)d cards.", scores[winner])
        % {"who": seat_label(winner), "n": scores[winner]}
    ]


def describe_event(event: Mapping[str, Any], mode: str | None = None) -> list[str]:
    """Zero or more sentences for one event."""
    kind = event["type"]
    if kind in ("touch", "pass"):
        return []
    if kind == "ready":
        return [_("%(who)s is ready.") % {"who": seat_label(event["seat"])}]
    if kind == "arranged":
        return [_("%(who)s rearranged their cards.") % {"who": seat_label(event["seat"])}]
    if kind == "reading":
        return [_("Reading %(n)d begins.") % {"n": event["number"]}]
    if kind == "send" and "by" in event:
        return [
            _("%(who)s sent %(card)s to the %(to)s.")
            % {
                "who": seat_label(event["by"]),
                "card": card_label(event["card"]),
                "to": team_label(event["receiver"]),
            }
        ]
    if kind == "send":
        return [
            _("%(who)s sent %(card)s to %(to)s.")
            % {
                "who": seat_label(event["from"]),
                "card": card_label(event["card"]),
                "to": seat_label(event["receiver"]),
            }
        ]
    if kind == "result":
        if "taker_team" in event:
            return _genpei_result(event)
        if "dead" in event:
            return _competitive_result(event)
        if "wrong" in event:
            return _solo_result(event)
        return _chirashi_result(event)
    if kind == "over":
        return _over(event)
    return []


def describe_events(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [line for event in events for line in describe_event(event)]
