"""The lobby's sentences for refusals (in the socket's language)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def duration(seconds: float) -> str:
    left = timedelta(seconds=max(0, round(seconds)))
    hours, rest = divmod(int(left.total_seconds()), 3600)
    minutes = max(1, -(-rest // 60)) if hours == 0 else rest // 60
    if hours:
        return _("%(hours)d h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
    return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}


def refusal(code: str, details: dict[str, Any]) -> str:
    if code == "cooldown":
        from django.utils import timezone

        left = (details["until"] - timezone.now()).total_seconds()
        count = details.get("abandonments", 2)
        return ngettext(
            "Rated games are closed to you for %(left)s more: you left %(count)d rated game "
            "in the last 7 days. Casual games are open.",
            "Rated games are closed to you for %(left)s more: you left %(count)d rated games "
            "in the last 7 days. Casual games are open.",
            count,
        ) % {"left": duration(left), "count": count}
    sentences = {
        "sign_in_to_rate": _("Sign in to play rated games; casual games are open to everyone."),
        "no_such_pool": _("There is no such quick game."),
        "no_such_game": _("There is no such game."),
        "seek_gone": _("That game has just been taken or withdrawn."),
        "own_seek": _("That is your own game: wait for someone to take it."),
        "not_online": _("This game cannot be played online with these settings."),
        "not_rated_game": _("These settings cannot be rated."),
        "slow_down": _("Too many requests: please wait a moment."),
        "too_many_seeks": _("You have created many games in a short time: please wait a minute."),
        "bad_frame": _("The lobby did not understand that request."),
    }
    return sentences.get(code, sentences["bad_frame"])
