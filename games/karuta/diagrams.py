"""The small board diagrams on the karuta rules page, and the rule that settles them.

Each case is described by what happened (which card was read, who touched
which side, who took the read card); the cards sent are computed by
`settle`, so every diagram follows one statement of the rules (docs/requirements.md §3):

* taking the read card first takes it off the field; taking it from the
  opponent's side also sends one of your own cards across;
* otetsuki: touching a card on a side where the read card is not (for a dead
  card, either side counts); each side touched in error costs one card, sent
  by the opponent;
* when both players commit otetsuki (tomo-otetsu) nobody is penalised.

Pure Python: no Django apart from the lazy translations of the captions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

Player = Literal["you", "opponent"]
Side = Literal["you", "opponent"]
PLAYERS: tuple[Player, Player] = ("you", "opponent")
CARDS_PER_SIDE = 4  # a diagram shows one short row per side


def signed(n: int) -> str:
    """+2, −1 (a true minus sign), ±0."""
    if n == 0:
        return "±0"
    return f"+{n}" if n > 0 else f"\u2212{-n}"


def other(player: Player) -> Player:
    return "opponent" if player == "you" else "you"


@dataclass(frozen=True)
class Touch:
    player: Player
    side: Side
    slot: int


@dataclass(frozen=True)
class Outcome:
    otetsuki: dict[Player, int]  # sides touched in error, per player
    penalised: dict[Player, int]  # cards received as otetsuki penalty (0 on tomo-otetsu)
    sent: dict[Player, int]  # cards each player finally sends to the other
    change: dict[Side, int]  # change in the number of cards on each side


def settle(read_side: Side | None, touches: list[Touch], taker: Player | None) -> Outcome:
    """What the rules make of one reading. read_side None means a dead card was read."""
    otetsuki: dict[Player, int] = {}
    for player in PLAYERS:
        wrong_sides = {t.side for t in touches if t.player == player and t.side != read_side}
        otetsuki[player] = len(wrong_sides)
    tomo = all(otetsuki[p] > 0 for p in PLAYERS)
    penalised = {p: 0 if tomo else otetsuki[p] for p in PLAYERS}

    # Cards moving from each player to the other, before netting.
    gives = {p: penalised[other(p)] for p in PLAYERS}  # a penalty is sent by the opponent
    change: dict[Side, int] = {"you": 0, "opponent": 0}
    if taker is not None:
        if read_side is None:
            raise ValueError("a dead card cannot be taken")
        change[read_side] -= 1
        if read_side != taker:
            gives[taker] += 1  # the send card (送り札)
    # A send and a penalty in opposite directions cancel out.
    net = gives["you"] - gives["opponent"]
    sent = {"you": max(net, 0), "opponent": max(-net, 0)}
    change["you"] += sent["opponent"] - sent["you"]
    change["opponent"] += sent["you"] - sent["opponent"]
    return Outcome(otetsuki, penalised, sent, change)


@dataclass(frozen=True)
class Case:
    key: str
    title: Promise
    text: Promise
    read_side: Side | None
    read_slot: int = 0
    touches: list[Touch] = field(default_factory=list)
    taker: Player | None = None

    @property
    def outcome(self) -> Outcome:
        return settle(self.read_side, self.touches, self.taker)

    def rows(self) -> list[dict]:
        """The opponent's row then yours, as the template draws them."""
        rows = []
        for side in ("opponent", "you"):
            cards = []
            for slot in range(CARDS_PER_SIDE):
                cards.append(
                    {
                        "read": self.read_side == side and self.read_slot == slot,
                        "touched_by": [
                            t.player for t in self.touches if t.side == side and t.slot == slot
                        ],
                    }
                )
            change = self.outcome.change[side]
            rows.append(
                {"side": side, "cards": cards, "change": change, "change_text": signed(change)}
            )
        return rows

    @property
    def change_you(self) -> str:
        return signed(self.outcome.change["you"])

    @property
    def change_opponent(self) -> str:
        return signed(self.outcome.change["opponent"])


CASES: list[Case] = [
    Case(
        key="own-side",
        title=_("Taking a card on your own side"),
        text=_(
            "The card read is on your side and you touch it first. It leaves your side: you are "
            "one card closer to winning."
        ),
        read_side="you",
        read_slot=1,
        touches=[Touch("you", "you", 1)],
        taker="you",
    ),
    Case(
        key="send",
        title=_("Taking a card on your opponent's side"),
        text=_(
            "The card read is on your opponent's side and you touch it first. You take it and "
            "send them one card of your choice from your side: again your side is one card "
            "lighter."
        ),
        read_side="opponent",
        read_slot=2,
        touches=[Touch("you", "opponent", 2)],
        taker="you",
    ),
    Case(
        key="same-side",
        title=_("A wrong card on the right side is not otetsuki"),
        text=_(
            "The card read is on your side. You touch a different card on your side, then the "
            "right one. Touching the wrong card on the side where the read card lies is allowed."
        ),
        read_side="you",
        read_slot=3,
        touches=[Touch("you", "you", 0), Touch("you", "you", 3)],
        taker="you",
    ),
    Case(
        key="otetsuki",
        title=_("Otetsuki: touching the wrong side"),
        text=_(
            "The card read is on your opponent's side but you touch a card on your own side. That"
            " is otetsuki: your opponent sends you one card as a penalty. Your opponent then "
            "takes their own card."
        ),
        read_side="opponent",
        read_slot=0,
        touches=[Touch("you", "you", 2), Touch("opponent", "opponent", 0)],
        taker="opponent",
    ),
    Case(
        key="dead-card",
        title=_("Otetsuki on a dead card"),
        text=_(
            "The card read is not on the field: it is one of the 50 dead cards. Touching any card"
            " now is otetsuki, and you receive one card."
        ),
        read_side=None,
        touches=[Touch("you", "opponent", 1)],
    ),
    Case(
        key="dabu",
        title=_("Dabu: otetsuki and your card taken"),
        text=_(
            "The card read is on your side, but you reach for your opponent's side. Your opponent"
            " takes the card from your side. They send you one card for taking from your side and"
            " one more for your otetsuki: two cards in all."
        ),
        read_side="you",
        read_slot=2,
        touches=[Touch("you", "opponent", 3), Touch("opponent", "you", 2)],
        taker="opponent",
    ),
    Case(
        key="cancel",
        title=_("Taking, but with otetsuki: the two cancel"),
        text=_(
            "The card read is on your opponent's side. You touch a card on your own side first "
            "(otetsuki), then still take the right card. You owe a send card and your opponent "
            "owes you a penalty card: they cancel, and nothing is sent. The card you took simply "
            "leaves your opponent's side."
        ),
        read_side="opponent",
        read_slot=1,
        touches=[Touch("you", "you", 0), Touch("you", "opponent", 1)],
        taker="you",
    ),
    Case(
        key="dead-both",
        title=_("A dead card, and both sides touched"),
        text=_(
            "A dead card is read and your hand sweeps across cards on both sides. Each side "
            "touched in error counts: you receive two cards."
        ),
        read_side=None,
        touches=[Touch("you", "you", 1), Touch("you", "opponent", 2)],
    ),
    Case(
        key="tomo",
        title=_("Tomo-otetsu: both players commit otetsuki"),
        text=_(
            "A dead card is read and both players touch a card. When both commit otetsuki, the "
            "penalties are not applied: nobody sends anything."
        ),
        read_side=None,
        touches=[Touch("you", "you", 3), Touch("opponent", "opponent", 1)],
    ),
    Case(
        key="same-moment",
        title=_("Touching the card at the same moment"),
        text=_(
            "If both players touch the card read at exactly the same moment, it goes to the "
            "player on whose side it lies. Here it is on your side, so you take it."
        ),
        read_side="you",
        read_slot=0,
        touches=[Touch("you", "you", 0), Touch("opponent", "you", 0)],
        taker="you",
    ),
]
