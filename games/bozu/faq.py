"""The Bozu Mekuri FAQ: one list feeds both the page and its schema.org FAQPage data."""

from django.utils.translation import gettext_lazy as _

import gamekit.faq

FAQ = [
    (
        _("How many people can play?"),
        _(
            "Two to four on this site, four by default. With a real set of cards more people "
            "can join in; the game simply gets shorter for each player."
        ),
    ),
    (
        _("How many monk cards are there?"),
        _(
            "Twelve on this site: the poets whose names contain 法師 or 僧正. Some printed decks "
            "have 13, because Semimaru is drawn as a monk, or 15, when the two nyūdō are too."
        ),
    ),
    (
        _("What does Semimaru do?"),
        _(
            "There is no single rule. By default he acts as a monk. The menu also lets him "
            "count as a nobleman, cost you your next turn, or send everyone else's cards to "
            "the field."
        ),
    ),
    (
        _("How many princesses are there, and what do they do?"),
        _(
            "Twenty-one. Whoever draws one takes every card in the field along with the "
            "princess. An optional rule gives an extra draw when a princess turns up while "
            "the field is empty."
        ),
    ),
    (
        _("What happens with the emperors?"),
        _(
            "There are seven emperors and retired emperors (天皇・院). By default they are "
            "ordinary noblemen; the menu offers an extra draw instead. Some families have "
            "other house rules, such as the emperor taking everyone's cards. Empress Jitō is "
            "counted as a princess."
        ),
    ),
    (
        _("Who gets the cards left in the field at the end?"),
        _("Nobody. Only the cards in the players' hands are counted."),
    ),
]


def faq_items() -> list[dict[str, str]]:
    return gamekit.faq.faq_items(FAQ)


def faq_jsonld() -> dict:
    return gamekit.faq.faq_jsonld(FAQ)
