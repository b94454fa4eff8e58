"""The record page's texts for its scripts (json_script: nothing in them breaks the page)."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def page_strings() -> dict[str, str]:
    return {
        "position": _("Move %(n)s of %(total)s"),
        "start": pgettext("record step", "The deal"),
        "pause": _("Pause"),
        "autoplay": _("Autoplay"),
        "copied": _("Link copied."),
        "copyFailed": _("Copy the address above."),
        "out": _("%(who)s is out."),
        "resign": _("%(who)s resigned."),
        "leave": _("%(who)s left."),
        "refused": _("%(who)s: a touch the judge refused."),
        "hand": _("Hand of %(who)s"),
        "deck": _("Deck, from the top"),
        "discard": _("Discard pile"),
        "empty": _("empty"),
        "taken": _("Cards taken by %(who)s"),
        "side": _("Side of %(who)s"),
        "field": _("Cards on the field"),
        "reading": _("Reading %(n)s"),
        "nobody": _("nobody"),
        "seconds": _("%(s)s s"),
        "handsChart": _("Cards in hand over the game"),
        "takesChart": _("Take times over the game"),
        "missed": _("missed"),
        "tableCards": _("On the table"),
    }
