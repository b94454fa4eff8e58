"""Bozu Mekuri's pure engine: no Django, no I/O, no clock, no global random.

The only randomness is the shuffle in `deal(rules, seed)`; after it the game is
a pure function of the pile order, because drawing is the only action and it
has no choice in it. `new_game(rules, pile)` starts from an explicit pile, so
tests (and the simulator agreement test) can set the order of the cards.

States are immutable: `draw` returns a new state and never touches the old
one, so a refused action changes nothing.

Events (JSON dicts, in the order they happen; the page turns them into words):
  drew            seat, poem, poet, poet_kana, class, extra (an extra draw?), pile (cards left)
  kept            seat, poem, hand (cards in hand after)
  to_field        seat, poem, cards (hand + the drawn card), hand (0), field (after)
  took_field      seat, poem, cards (field + the drawn card), from_field, hand (after)
  skip_next       seat (Semimaru "lose a turn": this seat's next turn is skipped)
  others_to_field seat (the drawer), moved [{seat, cards}], cards (total), field (after)
  extra_draw      seat, reason ("emperor" | "princess"): the same seat draws again
  turn_skipped    seat (a turn lost to Semimaru passes over this seat)
  game_over       places, cards, winners, draw, field (cards left, nobody's)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gamekit.base import GameOverError, InvalidActionError, NotYourTurnError
from games.bozu.rules import EmperorRule, Rules, SemimaruRule
from poems import catalogue
from poems.catalogue import PoetClass

DECK_SIZE = catalogue.POEM_COUNT
DRAW: dict[str, str] = {"type": "draw"}

Event = dict[str, Any]


def poet_class(number: int) -> PoetClass:
    return _CLASS_OF[number]


# Looked up for every card of the pile in every view: a plain table, not a catalogue call.
_CLASS_OF = {record.number: record.poet_class for record in catalogue.poems()}
_CLASS_VALUES = tuple(cls.value for cls in PoetClass)
# The class's name by card: an enum's `.value` is a property lookup, which made counting the
# pile most of a view's cost (bench/bench_move_cost.py).
_CLASS_VALUE_OF = {number: cls.value for number, cls in _CLASS_OF.items()}


@dataclass(frozen=True)
class BozuState:
    rules: Rules
    # Face down; pile[0] is the top card. The one secret: it never leaves the server.
    pile: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # per seat, face up, in the order they arrived
    field: tuple[int, ...]
    to_act: int | None  # None once the game is over
    extra_draw: bool = False  # the seat to act is drawing an extra card
    skip_next: tuple[bool, ...] = ()  # per seat: Semimaru "lose a turn" pending
    draws: int = 0
    last_card: int | None = None
    last_events: tuple[Event, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.to_act is None


# --- starting a game ----------------------------------------------------------


def shuffled_deck(seed: int) -> list[int]:
    deck = list(range(1, DECK_SIZE + 1))
    random.Random(seed).shuffle(deck)
    return deck


def deal(rules: Rules, seed: int) -> BozuState:
    """A new game on the 100 cards shuffled by `seed`."""
    return new_game(rules, shuffled_deck(seed))


def new_game(rules: Rules, pile: Iterable[int]) -> BozuState:
    """A new game on an explicit pile (top card first). A real game uses all 100 cards;
    tests may stack a shorter pile of distinct cards."""
    pile = tuple(pile)
    if not pile:
        raise ValueError("the pile is empty")
    if len(set(pile)) != len(pile) or not all(
        isinstance(n, int) and 1 <= n <= DECK_SIZE for n in pile
    ):
        raise ValueError("the pile must hold distinct poem numbers 1..100")
    return BozuState(
        rules=rules,
        pile=pile,
        hands=((),) * rules.players,
        field=(),
        to_act=0,  # red draws first
        skip_next=(False,) * rules.players,
    )


# --- playing ------------------------------------------------------------------


def legal_actions(state: BozuState, seat: int) -> list[dict[str, str]]:
    return [dict(DRAW)] if state.to_act == seat else []


def check_action(action: Any) -> None:
    """Drawing is the only action and it carries nothing but its type."""
    if not isinstance(action, Mapping) or dict(action) != DRAW:
        raise InvalidActionError('the only action in Bozu Mekuri is {"type": "draw"}')


def apply(state: BozuState, seat: int, action: Any) -> tuple[BozuState, list[Event]]:
    check_action(action)
    return draw(state, seat)


@dataclass
class _Table:
    """The face-up part of a state, as mutable lists while one draw is worked out."""

    hands: list[list[int]]
    field: list[int]
    skip_next: list[bool]


def draw(state: BozuState, seat: int) -> tuple[BozuState, list[Event]]:
    """`seat` draws the top card. Raises (changing nothing) if it may not."""
    if state.is_over:
        raise GameOverError("the game is over")
    if seat != state.to_act:
        raise NotYourTurnError(f"it is seat {state.to_act}'s turn, not seat {seat}'s")

    card, pile = state.pile[0], state.pile[1:]
    record = catalogue.poem(card)
    events: list[Event] = [
        {
            "type": "drew",
            "seat": seat,
            "poem": card,
            "poet": record.poet,
            "poet_kana": record.poet_kana,
            "class": record.poet_class.value,
            "extra": state.extra_draw,
            "pile": len(pile),
        }
    ]
    table = _Table([list(h) for h in state.hands], list(state.field), list(state.skip_next))
    extra_reason = _resolve(state.rules, table, seat, card, events)

    to_act: int | None
    if not pile:  # the game ends with the last card, even if an extra draw was owed
        to_act = None
    elif extra_reason:
        to_act = seat
        events.append({"type": "extra_draw", "seat": seat, "reason": extra_reason})
    else:
        to_act = _pass_turn(table, seat, events)

    new_state = replace(
        state,
        pile=pile,
        hands=tuple(tuple(hand) for hand in table.hands),
        field=tuple(table.field),
        to_act=to_act,
        extra_draw=bool(pile) and extra_reason is not None,
        skip_next=tuple(table.skip_next),
        draws=state.draws + 1,
        last_card=card,
    )
    final = result(new_state)
    if final is not None:
        events.append({"type": "game_over", **final, "field": len(table.field)})
    return replace(new_state, last_events=tuple(events)), events


def _resolve(rules: Rules, table: _Table, seat: int, card: int, events: list[Event]) -> str | None:
    """Do what the drawn card does to the table; return why the drawer draws again, if so."""
    cls = poet_class(card)
    hand = table.hands[seat]
    if cls is PoetClass.MONK or (cls is PoetClass.SEMIMARU and rules.semimaru is SemimaruRule.MONK):
        moved = len(hand) + 1
        table.field += [*hand, card]
        hand.clear()
        events.append(
            {
                "type": "to_field",
                "seat": seat,
                "poem": card,
                "cards": moved,
                "hand": 0,
                "field": len(table.field),
            }
        )
        return None

    if cls is PoetClass.PRINCESS:
        taken = len(table.field)
        hand += [*table.field, card]
        table.field.clear()
        events.append(
            {
                "type": "took_field",
                "seat": seat,
                "poem": card,
                "cards": taken + 1,
                "from_field": taken,
                "hand": len(hand),
            }
        )
        return "princess" if rules.princess_extra_draw and taken == 0 else None

    # Nobles, emperors, nyudo, and Semimaru under the three keeping rules.
    hand.append(card)
    events.append({"type": "kept", "seat": seat, "poem": card, "hand": len(hand)})
    if cls is PoetClass.EMPEROR and rules.emperor is EmperorRule.DRAW_AGAIN:
        return "emperor"
    if cls is PoetClass.SEMIMARU and rules.semimaru is SemimaruRule.SKIP_TURN:
        table.skip_next[seat] = True
        events.append({"type": "skip_next", "seat": seat})
    elif cls is PoetClass.SEMIMARU and rules.semimaru is SemimaruRule.OTHERS_TO_FIELD:
        moved_by_seat = []
        for other in _seats_after(seat, rules.players):
            moved_by_seat.append({"seat": other, "cards": len(table.hands[other])})
            table.field += table.hands[other]
            table.hands[other] = []
        events.append(
            {
                "type": "others_to_field",
                "seat": seat,
                "moved": moved_by_seat,
                "cards": sum(m["cards"] for m in moved_by_seat),
                "field": len(table.field),
            }
        )
    return None


def _pass_turn(table: _Table, seat: int, events: list[Event]) -> int:
    """The next seat clockwise, passing over (once) a seat that lost its turn to Semimaru."""
    players = len(table.hands)
    to_act = (seat + 1) % players
    while table.skip_next[to_act]:
        table.skip_next[to_act] = False
        events.append({"type": "turn_skipped", "seat": to_act})
        to_act = (to_act + 1) % players
    return to_act


def _seats_after(seat: int, players: int) -> list[int]:
    return [(seat + step) % players for step in range(1, players)]


def play_out(state: BozuState) -> BozuState:
    """Draw until the pile is empty (what every seat would do: there is no choice)."""
    while state.to_act is not None:
        state, _ = draw(state, state.to_act)
    return state


# --- results and views ----------------------------------------------------------


def places_for(cards: Sequence[int]) -> list[int]:
    """1 = first; ties share a place and the next place is skipped (4, 4, 2 -> 1, 1, 3)."""
    return [1 + sum(other > mine for other in cards) for mine in cards]


def result(state: BozuState) -> dict[str, Any] | None:
    """None while the game runs. Field cards belong to nobody."""
    if not state.is_over:
        return None
    cards = [len(hand) for hand in state.hands]
    places = places_for(cards)
    winners = [seat for seat, place in enumerate(places) if place == 1]
    return {"places": places, "cards": cards, "winners": winners, "draw": len(winners) > 1}


def pile_left(pile: Iterable[int]) -> dict[str, int]:
    """How many cards of each class are still face down (public: it follows from the table)."""
    counts = dict.fromkeys(_CLASS_VALUES, 0)
    for number in pile:
        counts[_CLASS_VALUE_OF[number]] += 1
    return counts


def view(state: BozuState, seat: int | None) -> dict[str, Any]:
    """What anyone at the table sees. Bozu hides nothing but the pile order, which is left out
    (with everything else that would reveal it), so every seat and spectators see the same."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    left = pile_left(state.pile)
    last = None
    if state.last_card is not None:
        record = catalogue.poem(state.last_card)
        last = {
            "poem": record.number,
            "poet": record.poet,
            "poet_kana": record.poet_kana,
            "class": record.poet_class.value,
        }
    return {
        "seat": seat,
        "players": state.players,
        "settings": state.rules.to_settings(),
        "to_act": state.to_act,
        "extra_draw": state.extra_draw,
        "over": state.is_over,
        "draws": state.draws,
        "hands": [list(hand) for hand in state.hands],
        "hand_counts": [len(hand) for hand in state.hands],
        "field": list(state.field),
        "field_count": len(state.field),
        "pile_count": len(state.pile),
        "pile_left": left,
        "monks_left": left[PoetClass.MONK.value],
        "princesses_left": left[PoetClass.PRINCESS.value],
        "skip_next": list(state.skip_next),
        "last_card": last,
        "last_events": [dict(event) for event in state.last_events],
        "result": result(state),
    }


# --- storage ------------------------------------------------------------------


def dump(state: BozuState) -> dict[str, Any]:
    return {
        "settings": state.rules.to_settings(),
        "pile": list(state.pile),
        "hands": [list(hand) for hand in state.hands],
        "field": list(state.field),
        "to_act": state.to_act,
        "extra_draw": state.extra_draw,
        "skip_next": list(state.skip_next),
        "draws": state.draws,
        "last_card": state.last_card,
        "last_events": [dict(event) for event in state.last_events],
    }


def load(data: Mapping[str, Any]) -> BozuState:
    rules = Rules.from_settings(data["settings"])
    state = BozuState(
        rules=rules,
        pile=tuple(data["pile"]),
        hands=tuple(tuple(hand) for hand in data["hands"]),
        field=tuple(data["field"]),
        to_act=data["to_act"],
        extra_draw=bool(data["extra_draw"]),
        skip_next=tuple(bool(flag) for flag in data["skip_next"]),
        draws=int(data["draws"]),
        last_card=data["last_card"],
        last_events=tuple(dict(event) for event in data["last_events"]),
    )
    cards = [*state.pile, *state.field, *(n for hand in state.hands for n in hand)]
    if len(state.hands) != rules.players or len(set(cards)) != len(cards):
        raise ValueError("a stored Bozu state must hold each card once and one hand per seat")
    return state
