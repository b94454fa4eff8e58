"""Handles with the site's reserved words and translated refusals (handles.py is the rule)."""

from __future__ import annotations

import functools
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from gamekit import registry
from gamekit.colours import SEAT_COLOURS, colour_label
from players import handles

_WORD = re.compile(r"[\w-]+")


@functools.cache
def reserved_keys() -> frozenset[str]:
    """Site words, every game's CPU level keys and names, and the seat colours, in each
    of the site's languages (a level's label such as "Beginner (初級)" counts word by word
    too)."""
    words: set[str] = set(handles.SITE_WORDS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for game in registry.all():
                for level in game.cpu_levels:
                    label = str(level.label)
                    words.update([level.key, label, *_WORD.findall(label)])
            for colour in SEAT_COLOURS:
                words.update([colour, colour_label(colour)])
    return frozenset(handles.handle_key(w) for w in words)


def refusal_message(refusal: handles.HandleRefusal) -> str:
    if refusal.rule == "too_short":
        return _("A handle needs at least %(n)d characters.") % {"n": handles.MIN_LENGTH}
    if refusal.rule == "too_long":
        return _("A handle can have at most %(n)d characters.") % {"n": handles.MAX_LENGTH}
    if refusal.rule == "character":
        if refusal.detail == "space":
            return _("A handle cannot contain spaces.")
        return _("A handle can hold letters, digits, “_” and “-” only, not “%(char)s”.") % {
            "char": refusal.detail
        }
    if refusal.rule == "reserved":
        return _("“%(handle)s” is reserved by the site. Please choose another handle.") % {
            "handle": refusal.detail
        }
    return _("“%(handle)s” is already taken (handles ignore case and letter width).") % {
        "handle": refusal.detail
    }


def clean_new_handle(raw: str) -> str:
    """The normalised handle for a new account, or ValidationError with the rule's message."""
    from players.models import Profile

    try:
        handle = handles.check(raw, reserved_keys())
        if Profile.objects.filter(handle_key=handles.handle_key(handle)).exists():
            raise handles.HandleRefusal("taken", handle)
    except handles.HandleRefusal as refusal:
        raise ValidationError(refusal_message(refusal), code=refusal.rule) from None
    return handle
