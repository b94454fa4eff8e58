"""The Bakudan Mekuri FAQ: one list feeds both the page and its schema.org FAQPage data."""

from django.utils.translation import gettext_lazy as _

import gamekit.faq

FAQ = [
    (
        _("How many people can play?"),
        _(
            "Two to five. Against the CPU you take the first seat and the CPU fills the rest; "
            "on one device two to five people pass it around; with friends everyone uses "
            "their own device."
        ),
    ),
    (
        _("Can the deck run out before the game ends?"),
        _(
            "No. There is always one bomb fewer than the players still in, so while two or "
            "more players remain at least one bomb waits in the deck, and the game ends as "
            "soon as only one player is left."
        ),
    ),
    (
        _("What happens if I draw a bomb?"),
        _(
            "If you hold a nipper, it is used up at once and you put the bomb back into "
            "the deck wherever you like — on top, at the bottom, at a position you choose, or "
            "at random. Nobody else learns where. Without a nipper you are out, and your "
            "hand goes to the discard pile with the bomb."
        ),
    ),
    (
        _("Do pushes add up?"),
        _(
            "No. A pushed player owes two turns. If they push in turn, the next player owes "
            "two turns as well, never four."
        ),
    ),
    (
        _("What does the shield protect against?"),
        _(
            "The next push or snatch aimed at you. It is used up by that one attack and does "
            "nothing against bombs."
        ),
    ),
    (
        _("What is the game number for?"),
        _(
            "It records the table (how many players and which CPU personality) and the "
            "shuffle. Enter it in the menu, or open a game link, and you get the very same "
            "deal; make the same moves and the CPUs answer with the same moves too. Send it "
            "to a friend to see who survives longer on the same cards."
        ),
    ),
    (
        _("Why can't I see the other players' cards on one shared device?"),
        _(
            "Between turns the screen goes blank and asks for the next player. Only when that "
            "player presses “show me” does their own hand appear, so nobody sees a "
            "hand that is not theirs."
        ),
    ),
    (
        _("Is money or betting involved?"),
        _(
            "No. Bakudan Mekuri here is a game for fun only; nothing can be won or paid, and "
            "that goes for the playing-card version too."
        ),
    ),
]


def faq_items() -> list[dict[str, str]]:
    return gamekit.faq.faq_items(FAQ)


def faq_jsonld() -> dict:
    return gamekit.faq.faq_jsonld(FAQ)
