"""Bakudan Mekuri (爆弾めくり), the pure engine: rules, state, views. No Django, no clock,
no global random — every random choice comes from the seed and a counter kept in the state,
so the same (seed, players, actions) always reaches the same state.

Rules (docs/requirements.md §4, the facts restated): 2–5 players, bombs = players − 1. Everyone
starts with 4 action cards and 1 nipper; 1–2 more nippers are in the deck with the rest of the
action cards, some blanks and the bombs. A turn is "play any number of action cards, then end
it" by drawing the top card, dodge, bottom draw or push. A pushed player owes two turn-ends;
pushes do not stack. A drawn bomb costs a nipper (spent automatically) and the drawer puts the
bomb back where they like; without a nipper the drawer is out. Bombs in the deck are always one
fewer than the players left, so the deck never runs out; the last one standing wins.

Choices this engine makes where the rules are silent (the UI states them on the rules page):

- "random" bomb placement: the engine draws the position and tells the placer, like every
  other choice. The rules say only the placer knows where the bomb went, for every choice;
  hiding it from the placer too would make "random" strictly worse than naming a position,
  and it would make the placer's notes unreliable. So "random" is "pick for me", nothing less.
- A shield lies face up in front of its holder (one at a time) until a push or snatch aimed
  at them is blocked; then it goes to the discard pile with the blocked card.
- A blocked push still ends the pusher's turn; the next player then owes one turn-end.
- Snatch: the target must be another player still in who has a card or a shield up.
- A player who leaves (`remove_seat`) is out; their hand goes to the discard pile and one
  bomb leaves the deck. Which one is secret, and taking it out moves every card below it, so
  every seat's notes are wiped (as by a shuffle). A leaver who was about to put a bomb back
  takes that bomb with them instead.
- A push owed by a player who goes out dies with them: the next player owes one turn-end.
- Places: the first player out is last (places[seat] = players), the winner is 1.
- vs CPU: when every person at the table is out, `fast_forward` plays the CPUs to the end at
  once, each from its own view (game.py decides when; the policy is injected).
- Notes (per seat): cards seen by position, counted from the top (0 = top). A top draw
  shifts every note up by one (the note on the drawn card goes); a bottom draw removes the
  note on the bottom card; a bomb put back by the seat itself shifts its notes below the
  insertion point down and adds the bomb; a bomb put back by someone else, a shuffle, or a
  player leaving wipes them.

Deck composition: see COMPOSITION below (the figures come from `manage.py bakudan_stats`).

The deal is a function of the seed alone (and the player count): that is what makes a game
number replay "the same deal". Card ids are random from the seed too, so they tell nothing
about a card's kind; views show an id only for a card the seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekit.base import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from gamekit.events import Private

MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_ACTIONS = 4  # action cards dealt to each player, with one nipper
PEEK_DEPTH = 3

BOMB = "bomb"
NIPPER = "nipper"
BLANK = "blank"
PEEK, DODGE, BOTTOM, PUSH, SNATCH, SHIELD, SHUFFLE = (
    "peek",
    "dodge",
    "bottom",
    "push",
    "snatch",
    "shield",
    "shuffle",
)
ACTIONS = (PEEK, DODGE, BOTTOM, PUSH, SNATCH, SHIELD, SHUFFLE)
KINDS = (BOMB, NIPPER, *ACTIONS, BLANK)
ENDS_TURN = frozenset({DODGE, BOTTOM, PUSH})  # playing one ends (one, or all) owed turn-ends
PLACES = ("top", "bottom", "random", "position")


@dataclass(frozen=True)
class Composition:
    """The cards of a game for one player count. `actions` is the whole action pool: four
    per player are dealt, the rest go into the deck with the blanks, extra nippers and bombs."""

    actions: Mapping[str, int]
    blanks: int
    extra_nippers: int

    def action_total(self) -> int:
        return sum(self.actions.values())

    def deck_size(self, players: int) -> int:
        """Cards in the deck after the deal."""
        dealt = HAND_ACTIONS * players
        return self.action_total() - dealt + self.blanks + self.extra_nippers + players - 1


def _pool(peek: int, dodge: int, bottom: int, push: int, snatch: int, shield: int, shuffle: int):
    return {
        PEEK: peek,
        DODGE: dodge,
        BOTTOM: bottom,
        PUSH: push,
        SNATCH: snatch,
        SHIELD: shield,
        SHUFFLE: shuffle,
    }


# THE deck table, per player count. Why these numbers:
# - 4–6 cards per player in the deck after the deal (12, 14, 18, 21): danger (bombs ÷ cards)
#   starts at 8% / 14% / 17% / 19% for 2 / 3 / 4 / 5 players, so the first draws are calm, and
#   climbs as the deck thins; the last turns of a game are drawn at 30–100%, where peeks,
#   dodges and pushes decide it. A bigger deck made the first half of a game dull; a smaller
#   one put players out in the first round.
# - Escapes (dodge, bottom draw, push) are about 40% of the action pool, so nobody can dodge
#   all game: each escape is spent for good. With the deck only ever shrinking (the discard
#   pile never comes back), every game ends: at most one move per card plus one per nipper.
# - Every kind is in the pool at every count; peek and shield are the most common because the
#   game's tips are about them (peek once danger is high, keep shields for pushes).
# - Two extra nippers from 4 players up, one below: with three or four bombs in the deck the
#   first player would otherwise be out within the first two rounds.
# Measured (`manage.py bakudan_stats --games 3000 --seed 1`, CPU-only tables of every mix of
# the three personalities): turn-ends per game, mean (5th–95th percentile), and mean turn-ends
# before each elimination:
#   2 players: 12.5 (4–19);  12.5
#   3 players: 18.4 (8–24);  12.0, 6.4
#   4 players: 25.3 (15–31); 13.5, 6.2, 5.6
#   5 players: 30.8 (22–36); 14.4, 6.3, 5.3, 4.8
# i.e. the first player goes out after 3 rounds (5 players) to 6 rounds (2 players), each next
# one 1.5–3 rounds of the players left later: the pace quickens as danger climbs, and a game
# lasts a few minutes (12–31 turn-ends on average).
COMPOSITION: dict[int, Composition] = {
    2: Composition(_pool(3, 2, 2, 2, 2, 2, 2), blanks=3, extra_nippers=1),
    3: Composition(_pool(4, 3, 2, 3, 2, 3, 2), blanks=4, extra_nippers=1),
    4: Composition(_pool(5, 4, 3, 3, 3, 4, 2), blanks=5, extra_nippers=2),
    5: Composition(_pool(6, 4, 3, 4, 4, 5, 3), blanks=6, extra_nippers=2),
}


# --- refusals -----------------------------------------------------------------------------
# Codes the platform shows in words through Bakudan.error_messages (a pure engine has no
# translations); the English text of each exception is for logs and tests.


class PlaceBombFirstError(IllegalActionError):
    code = "place_bomb_first"


class NoBombToPlaceError(IllegalActionError):
    code = "no_bomb_to_place"


class NotInHandError(IllegalActionError):
    code = "card_not_in_hand"


class UnplayableCardError(IllegalActionError):
    code = "card_not_playable"


class SnatchTargetError(IllegalActionError):
    code = "bad_snatch_target"


class ShieldUpError(IllegalActionError):
    code = "shield_already_up"


class BombPositionError(IllegalActionError):
    code = "bad_bomb_position"


ERROR_CODES = tuple(
    cls.code
    for cls in (
        PlaceBombFirstError,
        NoBombToPlaceError,
        NotInHandError,
        UnplayableCardError,
        SnatchTargetError,
        ShieldUpError,
        BombPositionError,
    )
)


# --- state ----------------------------------------------------------------------------------


@dataclass
class BakudanState:
    players: int
    seed: int
    number: str  # the game number (players, CPU personality, seed)
    cpu: list[str | None]  # per seat: the CPU personality, None for a person
    kinds: dict[str, str]  # card id -> kind, for every card of the game
    deck: list[str]  # index 0 is the top
    hands: list[list[str]]
    discard: list[str]  # the last one is the top
    shields: list[str | None]  # the shield card lying in front of each seat
    alive: list[bool]
    places: list[int | None]
    notes: list[dict[int, str]]  # per seat: deck position -> card id it knows is there
    last_draw: list[str | None]
    to_act: int | None
    owed: int  # turn-ends the seat to act still owes (the one ending with a pending bomb too)
    pending: str | None = None  # the bomb the seat to act must put back
    rng_count: int = 0  # how many random draws the game has made (the rng's position)
    moves: int = 0  # actions applied so far
    turn_ends: int = 0
    winner: int | None = None
    fast_forward: bool = False
    eliminations: list[int] = field(default_factory=list)  # seats in the order they went out
    elimination_turns: list[int] = field(default_factory=list)  # turn_ends at each

    @property
    def over(self) -> bool:
        return self.winner is not None

    def copy(self) -> BakudanState:
        return BakudanState(
            players=self.players,
            seed=self.seed,
            number=self.number,
            cpu=list(self.cpu),
            kinds=self.kinds,  # never changes after the deal: shared
            deck=list(self.deck),
            hands=[list(hand) for hand in self.hands],
            discard=list(self.discard),
            shields=list(self.shields),
            alive=list(self.alive),
            places=list(self.places),
            notes=[dict(notes) for notes in self.notes],
            last_draw=list(self.last_draw),
            to_act=self.to_act,
            owed=self.owed,
            pending=self.pending,
            rng_count=self.rng_count,
            moves=self.moves,
            turn_ends=self.turn_ends,
            winner=self.winner,
            fast_forward=self.fast_forward,
            eliminations=list(self.eliminations),
            elimination_turns=list(self.elimination_turns),
        )

    def rng(self) -> random.Random:
        """A fresh generator for the next random choice (the count moves on)."""
        self.rng_count += 1
        return random.Random(f"bakudan:{self.seed}:{self.rng_count}")

    def alive_count(self) -> int:
        return sum(self.alive)

    def bombs_in_deck(self) -> int:
        return sum(1 for card in self.deck if self.kinds[card] == BOMB)

    def next_alive(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.alive[other]:
                return other
        raise AssertionError("nobody is left")


# --- the deal ---------------------------------------------------------------------------------


def _card_ids(seed: int, count: int) -> list[str]:
    """Opaque ids, unique in the game, that say nothing about the card (random from the seed)."""
    rng = random.Random(f"bakudan-ids:{seed}")
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < count:
        card = f"c{rng.getrandbits(32):08x}"
        if card not in seen:
            seen.add(card)
            ids.append(card)
    return ids


def deal(
    players: int,
    seed: int,
    cpu: list[str | None] | None = None,
    number: str = "",
    composition: Composition | None = None,
) -> BakudanState:
    """A new game. `cpu` gives each seat's CPU personality (None: a person)."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Bakudan Mekuri is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    cpu = list(cpu) if cpu is not None else [None] * players
    if len(cpu) != players:
        raise ValueError(f"{players} players need {players} seats, not {len(cpu)}")
    comp = composition or COMPOSITION[players]
    if comp.action_total() < HAND_ACTIONS * players:
        raise ValueError("the action pool is smaller than the hands to deal")
    rng = random.Random(f"bakudan-deal:{seed}")
    actions = [kind for kind, n in comp.actions.items() for _ in range(n)]
    rest = [NIPPER] * comp.extra_nippers + [BLANK] * comp.blanks + [BOMB] * (players - 1)
    all_kinds = actions + [NIPPER] * players + rest
    ids = _card_ids(seed, len(all_kinds))
    rng.shuffle(ids)  # which id goes with which kind: unrelated to the id's value
    kinds = dict(zip(ids, all_kinds, strict=True))
    action_ids = ids[: len(actions)]
    nipper_ids = ids[len(actions) : len(actions) + players]
    rest_ids = ids[len(actions) + players :]
    rng.shuffle(action_ids)
    hands = []
    for seat in range(players):
        dealt = action_ids[seat * HAND_ACTIONS : (seat + 1) * HAND_ACTIONS]
        hands.append([*dealt, nipper_ids[seat]])
    deck = action_ids[players * HAND_ACTIONS :] + rest_ids
    rng.shuffle(deck)
    return BakudanState(
        players=players,
        seed=seed,
        number=number,
        cpu=cpu,
        kinds=kinds,
        deck=deck,
        hands=hands,
        discard=[],
        shields=[None] * players,
        alive=[True] * players,
        places=[None] * players,
        notes=[{} for _ in range(players)],
        last_draw=[None] * players,
        to_act=0,
        owed=1,
    )


# --- actions ------------------------------------------------------------------------------------


def _card(state: BakudanState, card: str) -> dict[str, str]:
    return {"id": card, "kind": state.kinds[card]}


def legal_actions(state: BakudanState, seat: int) -> list[dict[str, Any]]:
    if state.over or seat != state.to_act:
        return []
    if state.pending is not None:
        moves: list[dict[str, Any]] = [
            {"type": "place_bomb", "where": where} for where in ("top", "bottom", "random")
        ]
        moves += [
            {"type": "place_bomb", "where": "position", "position": n}
            for n in range(len(state.deck) + 1)
        ]
        return moves
    moves = []
    for card in state.hands[seat]:
        kind = state.kinds[card]
        if kind == SNATCH:
            moves += [
                {"type": "play", "card": card, "target": target}
                for target in _snatch_targets(state, seat)
            ]
        elif kind == SHIELD:
            if state.shields[seat] is None:
                moves.append({"type": "play", "card": card})
        elif kind in ACTIONS:
            moves.append({"type": "play", "card": card})
    moves.append({"type": "draw"})
    return moves


def _snatch_targets(state: BakudanState, seat: int) -> list[int]:
    return [
        other
        for other in range(state.players)
        if other != seat
        and state.alive[other]
        and (state.hands[other] or state.shields[other] is not None)
    ]


def _check_shape(action: Any) -> str:
    if not isinstance(action, Mapping):
        raise InvalidActionError("an action is an object with a 'type'")
    kind = action.get("type")
    if kind == "draw":
        return kind
    if kind == "play":
        if not isinstance(action.get("card"), str):
            raise InvalidActionError("'play' needs the 'card' id to play")
        target = action.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise InvalidActionError("'target' is a seat number")
        return kind
    if kind == "place_bomb":
        where = action.get("where")
        if where not in PLACES:
            raise InvalidActionError("'where' is one of top, bottom, random, position")
        if where == "position":
            position = action.get("position")
            if not isinstance(position, int) or isinstance(position, bool):
                raise InvalidActionError("'position' is a whole number counted from the top")
        return kind
    raise InvalidActionError("the action type is one of play, draw, place_bomb")


def apply(
    state: BakudanState, seat: int, action: Mapping[str, Any]
) -> tuple[BakudanState, list[dict[str, Any] | Private]]:
    """The new state and the events the action caused. Raises a GameError (and changes
    nothing: the given state is never modified) for a refused action."""
    kind = _check_shape(action)
    if state.over:
        raise GameOverError("the game is over")
    if seat != state.to_act:
        raise NotYourTurnError(f"it is seat {state.to_act}'s turn, not seat {seat}'s")
    new = state.copy()
    new.moves += 1
    events: list[dict[str, Any] | Private] = []
    if new.pending is not None:
        if kind != "place_bomb":
            raise PlaceBombFirstError("put the bomb back into the deck first")
        _place_bomb(new, seat, action, events)
    elif kind == "place_bomb":
        raise NoBombToPlaceError("there is no bomb to put back")
    elif kind == "draw":
        _draw(new, seat, "top", events)
    else:
        _play(new, seat, action, events)
    return new, events


def _play(state: BakudanState, seat: int, action: Mapping[str, Any], events: list) -> None:
    card = action["card"]
    if card not in state.hands[seat]:
        raise NotInHandError("that card is not in your hand")
    kind = state.kinds[card]
    if kind not in ACTIONS:
        raise UnplayableCardError(f"a {kind} card cannot be played")
    target = action.get("target")
    if kind == SNATCH:
        if target is None:
            raise InvalidActionError("a snatch needs a 'target' seat")
        if target not in _snatch_targets(state, seat):
            raise SnatchTargetError("snatch from another player still in who has cards")
    elif target is not None:
        raise InvalidActionError(f"a {kind} card takes no target")
    if kind == SHIELD and state.shields[seat] is not None:
        raise ShieldUpError("you already have a shield up")

    state.hands[seat].remove(card)
    played: dict[str, Any] = {"type": "played", "seat": seat, "kind": kind, "card": card}
    if kind == SNATCH:
        played["target"] = target
    events.append(played)
    if kind == SHIELD:
        state.shields[seat] = card  # face up in front of the holder, not discarded yet
        return
    state.discard.append(card)
    if kind == PEEK:
        seen = state.deck[:PEEK_DEPTH]
        for position, other in enumerate(seen):
            state.notes[seat][position] = other
        events.append(
            Private(
                {
                    "type": "peeked",
                    "seat": seat,
                    "cards": [{"position": n, "card": _card(state, c)} for n, c in enumerate(seen)],
                },
                only=(seat,),
                public={"type": "peeked", "seat": seat, "count": len(seen)},
            )
        )
    elif kind == SHUFFLE:
        state.rng().shuffle(state.deck)
        _wipe_notes(state, keep=None)
        events.append({"type": "shuffled", "seat": seat})
    elif kind == SNATCH:
        _snatch(state, seat, target, events)
    elif kind == DODGE:
        _end_one(state, events)
    elif kind == BOTTOM:
        _draw(state, seat, "bottom", events)
    elif kind == PUSH:
        _push(state, seat, events)


def _snatch(state: BakudanState, seat: int, target: int, events: list) -> None:
    if _block(state, target, seat, SNATCH, events):
        return
    hand = state.hands[target]
    taken = hand[state.rng().randrange(len(hand))]
    hand.remove(taken)
    state.hands[seat].append(taken)
    events.append(
        Private(
            {"type": "snatched", "seat": seat, "target": target, "card": _card(state, taken)},
            only=(seat, target),
            public={"type": "snatched", "seat": seat, "target": target},
        )
    )


def _block(state: BakudanState, target: int, by: int, kind: str, events: list) -> bool:
    """A shield in front of `target` stops this push or snatch (and is used up)."""
    shield = state.shields[target]
    if shield is None:
        return False
    state.shields[target] = None
    state.discard.append(shield)
    events.append({"type": "shield_blocked", "seat": target, "by": by, "kind": kind})
    return True


def _push(state: BakudanState, seat: int, events: list) -> None:
    """End every turn-end the pusher owes; the next player owes two (never more)."""
    target = state.next_alive(seat)
    state.turn_ends += 1
    if _block(state, target, seat, PUSH, events):
        _pass_turn(state, events, owed=1)
        return
    events.append({"type": "pushed", "seat": seat, "target": target})
    _pass_turn(state, events, owed=2)


def _end_one(state: BakudanState, events: list) -> None:
    state.turn_ends += 1
    state.owed -= 1
    if state.owed <= 0:
        _pass_turn(state, events, owed=1)
    else:
        events.append({"type": "turn", "seat": state.to_act, "owed": state.owed})


def _pass_turn(state: BakudanState, events: list, owed: int) -> None:
    state.to_act = state.next_alive(state.to_act)
    state.owed = owed
    events.append({"type": "turn", "seat": state.to_act, "owed": owed})


def _draw(state: BakudanState, seat: int, end: str, events: list) -> None:
    if end == "top":
        card = state.deck.pop(0)
        for notes in state.notes:
            shifted = {position - 1: c for position, c in notes.items() if position > 0}
            notes.clear()
            notes.update(shifted)
    else:
        card = state.deck.pop()
        bottom = len(state.deck)  # the position the drawn card had
        for notes in state.notes:
            notes.pop(bottom, None)
    state.last_draw[seat] = card
    if state.kinds[card] != BOMB:
        state.hands[seat].append(card)
        events.append(
            Private(
                {"type": "drew_card", "seat": seat, "from": end, "card": _card(state, card)},
                only=(seat,),
                public={"type": "drew_card", "seat": seat, "from": end},
            )
        )
        _end_one(state, events)
        return
    nippers = [c for c in state.hands[seat] if state.kinds[c] == NIPPER]
    events.append({"type": "drew_bomb", "seat": seat, "from": end, "nipper": bool(nippers)})
    if nippers:
        state.hands[seat].remove(nippers[0])
        state.discard.append(nippers[0])
        state.pending = card
        return
    state.turn_ends += 1
    _eliminate(state, seat, card, events)
    if not state.over:
        _pass_turn(state, events, owed=1)  # a push owed by the fallen player dies with them


def _eliminate(state: BakudanState, seat: int, bomb: str | None, events: list) -> None:
    """The seat is out: its hand (and shield, and the bomb that got it) go to the discard."""
    place = state.alive_count()
    gone = list(state.hands[seat])
    state.hands[seat] = []
    if state.shields[seat] is not None:
        gone.append(state.shields[seat])
        state.shields[seat] = None
    state.discard.extend(gone)
    if bomb is not None:
        state.discard.append(bomb)
    state.alive[seat] = False
    state.places[seat] = place
    state.notes[seat] = {}
    state.eliminations.append(seat)
    state.elimination_turns.append(state.turn_ends)
    events.append({"type": "eliminated", "seat": seat, "place": place, "cards": len(gone)})
    if state.alive_count() == 1:
        winner = state.alive.index(True)
        state.winner = winner
        state.places[winner] = 1
        state.to_act = None
        state.owed = 0
        state.pending = None
        events.append({"type": "won", "seat": winner})


def _place_bomb(state: BakudanState, seat: int, action: Mapping[str, Any], events: list) -> None:
    size = len(state.deck)
    where = action["where"]
    if where == "top":
        position = 0
    elif where == "bottom":
        position = size
    elif where == "random":
        position = state.rng().randrange(size + 1)
    else:
        position = action["position"]
        if not 0 <= position <= size:
            raise BombPositionError(f"the position is from 0 (top) to {size} (bottom)")
    bomb = state.pending
    state.deck.insert(position, bomb)
    state.pending = None
    mine = {(p + 1 if p >= position else p): c for p, c in state.notes[seat].items()}
    mine[position] = bomb
    _wipe_notes(state, keep=seat)
    state.notes[seat] = mine
    events.append(
        Private(
            {"type": "bomb_placed", "seat": seat, "where": where, "position": position},
            only=(seat,),
            public={"type": "bomb_placed", "seat": seat},
        )
    )
    _end_one(state, events)


def _wipe_notes(state: BakudanState, keep: int | None) -> None:
    for seat in range(state.players):
        if seat != keep:
            state.notes[seat] = {}


def remove_seat(
    state: BakudanState, seat: int
) -> tuple[BakudanState, list[dict[str, Any] | Private]]:
    """A player who left: out; hand to the discard; one bomb leaves the deck (or the one they
    were about to put back) so bombs stay one fewer than the players left."""
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat}")
    if state.over or not state.alive[seat]:
        return state, []
    new = state.copy()
    events: list[dict[str, Any] | Private] = []
    was_to_act = new.to_act == seat
    bombs = [n for n, card in enumerate(new.deck) if new.kinds[card] == BOMB]
    if new.pending is not None and (was_to_act or not bombs):
        # The bomb in the leaver's hands goes with them; or, two players left and the other
        # one holding the only bomb, that one goes (the other player wins at once).
        bomb = new.pending
        new.pending = None
    else:
        bomb = new.deck.pop(bombs[new.rng().randrange(len(bombs))])
        # Cards below the removed bomb moved up; nobody may learn where it was.
        _wipe_notes(new, keep=None)
        events.append({"type": "bomb_removed"})
    _eliminate(new, seat, bomb, events)
    if not new.over and was_to_act:
        new.to_act = seat  # pass on from the leaver's place at the table
        _pass_turn(new, events, owed=1)
    return new, events


# --- reading the state ---------------------------------------------------------------------


def danger(state: BakudanState) -> float:
    return state.bombs_in_deck() / len(state.deck) if state.deck else 0.0


def view(state: BakudanState, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see. Never another hand, never the deck order
    beyond that seat's notes, never the rng position."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    seats = [
        {
            "index": n,
            "alive": state.alive[n],
            "hand_count": len(state.hands[n]),
            "shield": state.shields[n] is not None,
            "place": state.places[n],
            "human": state.cpu[n] is None,
            "cpu": state.cpu[n],
        }
        for n in range(state.players)
    ]
    top = state.discard[-1] if state.discard else None
    own = seat is not None
    return {
        "seat": seat,
        "players": state.players,
        # The number fixes the deal: shown only once nothing is hidden any more.
        "number": state.number if state.over else None,
        "seats": seats,
        "to_act": state.to_act,
        "owed": state.owed,
        "pending": None if state.pending is None else {"type": "place_bomb", "seat": state.to_act},
        "deck_count": len(state.deck),
        "bombs_in_deck": state.bombs_in_deck(),
        "danger": danger(state),
        "discard_count": len(state.discard),
        "discard_top": None if top is None else _card(state, top),
        "hand": [_card(state, c) for c in state.hands[seat]] if own else None,
        "notes": [
            {"position": p, "card": _card(state, c)} for p, c in sorted(state.notes[seat].items())
        ]
        if own
        else None,
        "last_draw": _last_draw(state, seat) if own else None,
        "legal": legal_actions(state, seat) if own else [],
        "turn_ends": state.turn_ends,
        "over": state.over,
        "winner": state.winner,
        "places": list(state.places) if state.over else None,
        "fast_forward": state.fast_forward,
    }


def _last_draw(state: BakudanState, seat: int) -> dict[str, str] | None:
    """The card the seat drew last, while it is still its own: in its hand, or the bomb it
    must put back. Once snatched or put back it is not shown again (where it went is
    someone else's hand or the deck)."""
    card = state.last_draw[seat]
    if card is None:
        return None
    if card in state.hands[seat] or (card == state.pending and state.to_act == seat):
        return _card(state, card)
    return None


def result(state: BakudanState) -> dict[str, Any] | None:
    if not state.over:
        return None
    return {
        "winner": state.winner,
        "winners": [state.winner],
        "number": state.number,
        "places": list(state.places),
        "out_order": list(state.eliminations),
        "fast_forward": state.fast_forward,
        "turn_ends": state.turn_ends,
    }


# --- playing on without people (vs-CPU fast-forward, simulations) -------------------------------

Policy = Callable[[dict[str, Any], int, random.Random], Mapping[str, Any]]


def cpu_rng(state: BakudanState, seat: int) -> random.Random:
    """The CPU's generator for its next move when the engine plays it (fast-forward, stats):
    derived from the seed and the game's progress, so a replay makes the same moves."""
    return random.Random(f"bakudan-cpu:{state.seed}:{state.moves}:{seat}")


def play_out(
    state: BakudanState, policy: Policy, max_moves: int = 10_000
) -> tuple[BakudanState, list[dict[str, Any] | Private]]:
    """Play every remaining move with `policy` (which sees only each seat's view) to the end."""
    events: list[dict[str, Any] | Private] = []
    for _ in range(max_moves):
        if state.over:
            return state, events
        seat = state.to_act
        action = policy(view(state, seat), seat, cpu_rng(state, seat))
        state, new = apply(state, seat, action)
        events += new
    raise RuntimeError("the game did not end")


def needs_fast_forward(state: BakudanState) -> bool:
    """True when the game goes on but every person at the table is out (a vs-CPU game)."""
    people = [seat for seat in range(state.players) if state.cpu[seat] is None]
    return not state.over and bool(people) and not any(state.alive[s] for s in people)


def fast_forward(
    state: BakudanState, policy: Policy
) -> tuple[BakudanState, list[dict[str, Any] | Private]]:
    """Play the CPUs to the end; the events are a summary (who went out, who survived)."""
    start = state.turn_ends
    state, played = play_out(state, policy)
    state.fast_forward = True
    summary: list[dict[str, Any] | Private] = [
        {"type": "fast_forward", "turn_ends": state.turn_ends - start}
    ]
    summary += [
        event
        for event in played
        if isinstance(event, dict) and event["type"] in ("eliminated", "won")
    ]
    return state, summary


# --- storage --------------------------------------------------------------------------------


def dump(state: BakudanState) -> dict[str, Any]:
    return {
        "players": state.players,
        "seed": state.seed,
        "number": state.number,
        "cpu": list(state.cpu),
        "kinds": dict(state.kinds),
        "deck": list(state.deck),
        "hands": [list(hand) for hand in state.hands],
        "discard": list(state.discard),
        "shields": list(state.shields),
        "alive": list(state.alive),
        "places": list(state.places),
        "notes": [{str(p): c for p, c in notes.items()} for notes in state.notes],
        "last_draw": list(state.last_draw),
        "to_act": state.to_act,
        "owed": state.owed,
        "pending": state.pending,
        "rng_count": state.rng_count,
        "moves": state.moves,
        "turn_ends": state.turn_ends,
        "winner": state.winner,
        "fast_forward": state.fast_forward,
        "eliminations": list(state.eliminations),
        "elimination_turns": list(state.elimination_turns),
    }


def load(data: Mapping[str, Any]) -> BakudanState:
    fields = dict(data)
    fields["notes"] = [{int(p): c for p, c in notes.items()} for notes in data["notes"]]
    return BakudanState(**fields)
