"""The karuta FAQ: one list feeds both the visible FAQ and its schema.org FAQPage data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

import gamekit.faq

FAQ = [
    (
        _("Do I need to know all 100 poems by heart to play?"),
        _(
            "No. In chirashi you can listen to the upper verse and search the cards for the "
            "lower verse that follows; turning on the kimariji under each card helps too. Most "
            "players start with the seven poems that are decided by their first kana and add "
            "a few more each time they play."
        ),
    ),
    (
        _("Why do the grabbing cards have no voicing marks?"),
        _(
            "Classical kana writing did not usually mark voiced sounds, and the grabbing cards "
            "keep that old custom: が is written か, and で is written て. The poem is still "
            "read aloud with its voiced sounds, and kimariji are counted on those sounds."
        ),
    ),
    (
        _("What is a dead card?"),
        _(
            "In competitive karuta each player lays out 25 cards, so 50 of the 100 cards are "
            "not on the field. They are still read. When one of them is read nobody may take "
            "anything, and touching any card is otetsuki."
        ),
    ),
    (
        _("Why is a poem read before the first card?"),
        _(
            "Competitive games open with a poem that is not one of the hundred, 難波津に咲くや"
            "この花. It lets the players hear the reader's voice and rhythm before the first "
            "real card. It is never a card, so nobody takes anything."
        ),
    ),
    (
        _("What if both players touch the right card at the same moment?"),
        _("The card goes to the player on whose side it lies."),
    ),
    (
        _("Why did a poem's kimariji get shorter during the game?"),
        _(
            "Only poems that have not been read yet can be confused with the one being read. "
            "Once its look-alikes have been read, fewer sounds are enough: after ちぎりきな has "
            "been read, ちぎりおきし is decided at ちぎ. The kimariji page lets you try this."
        ),
    ),
    (
        _("How fast do strong players take a card?"),
        _(
            "A reader voices about five kana a second, so most poems are decided within a "
            "second of the upper verse starting. Top players touch the card about 0.1 to 0.2 "
            "seconds after the deciding sound."
        ),
    ),
    (
        _("Why was my touch refused as too early?"),
        _(
            "On this site a touch counts from the deciding kana: while the kana shown 0.1 "
            "seconds before your touch could still begin another unread poem, it is refused. "
            "It is not an otetsuki and no card moves. Online the server has to trust the "
            "moment a touch says it was made, within your connection's delay, so a guess "
            "could not be told from a late message; guesses are therefore not counted."
        ),
    ),
    (
        _("What is the difference between chirashi and competitive karuta?"),
        _(
            "In chirashi all the cards lie scattered between the players, anyone may take any "
            "card, and whoever holds the most cards at the end wins. In competitive karuta two "
            "players each defend their own 25 cards, and the first to clear their own side "
            "wins."
        ),
    ),
    (
        _("Who chooses the card to send in genpei-sen?"),
        _(
            "The player who took the card chooses which of the team's cards goes across. When "
            "the other team owes yours a penalty card without having taken the card, its first "
            "player chooses. A CPU chooses as its level does: the stronger ones send cards "
            "whose beginnings are easy to confuse with others."
        ),
    ),
    (
        _("Can I play genpei-sen on my own?"),
        _(
            "Yes: against the computer, with up to three CPU teammates against up to four CPU "
            "opponents, each at the level you choose. With friends, everyone who opens the "
            "invitation picks a team, the room's creator can move seats between the teams "
            "until the game starts, and CPUs can take the seats left empty."
        ),
    ),
]


def faq_items() -> list[dict[str, str]]:
    return gamekit.faq.faq_items(FAQ)


def faq_jsonld() -> dict:
    return gamekit.faq.faq_jsonld(FAQ)
