"""A vectorised Monte Carlo of whole Bozu Mekuri games (NumPy, no Django).

Every game draws exactly 100 cards, so the simulator takes one step per card for
all games at once: step t draws the t-th card of every game's pile. Extra draws
and lost turns only change whose hand a step touches, never the number of
steps. Per game it keeps the hand counts, the field count, the seat to act, the
seat (if any) that will lose its next turn to Semimaru, and the most cards one
draw has moved. When the rules cannot change the turn order, every game waits on
the same seat at each step, and a faster path works on whole rows.

Only the class of each card matters, so the random path draws classes from what
is left of each pile (`random_steps`). `final_counts(rules, orders)` takes explicit
piles of poem numbers instead: given the same piles, it and the pure engine reach
the same hands and field, which the tests check game by game for all 48 rules.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from games.bozu.rules import EmperorRule, Rules, SemimaruRule
from poems import catalogue
from poems.catalogue import PoetClass

DECK_SIZE = catalogue.POEM_COUNT
CHUNK = 250_000  # games simulated together; bounds memory to ~tens of MB

# What a drawn card does, once the rules are known.
KEEP, MONK, PRINCESS, KEEP_EXTRA, SEMI_SKIP, SEMI_OTHERS = range(6)
_CLASS_CODES = {cls: code for code, cls in enumerate(PoetClass)}


def _card_classes() -> np.ndarray:
    """Class code of each poem number (index 0 unused)."""
    codes = np.zeros(DECK_SIZE + 1, dtype=np.int8)
    for record in catalogue.poems():
        codes[record.number] = _CLASS_CODES[record.poet_class]
    return codes


CARD_CLASS = _card_classes()
DECK_CLASSES = CARD_CLASS[1:].copy()  # the 100 cards as class codes


def effect_table(rules: Rules) -> np.ndarray:
    """Map class code -> effect code under these rules."""
    table = np.full(len(PoetClass), KEEP, dtype=np.int8)
    table[_CLASS_CODES[PoetClass.MONK]] = MONK
    table[_CLASS_CODES[PoetClass.PRINCESS]] = PRINCESS
    if rules.emperor is EmperorRule.DRAW_AGAIN:
        table[_CLASS_CODES[PoetClass.EMPEROR]] = KEEP_EXTRA
    table[_CLASS_CODES[PoetClass.SEMIMARU]] = {
        SemimaruRule.MONK: MONK,
        SemimaruRule.NOBLE: KEEP,
        SemimaruRule.SKIP_TURN: SEMI_SKIP,
        SemimaruRule.OTHERS_TO_FIELD: SEMI_OTHERS,
    }[rules.semimaru]
    return table


class Step(NamedTuple):
    """What the card drawn at one step does, per game (boolean masks; None = never)."""

    monk: np.ndarray  # hand + card to the field (a monk, or Semimaru as a monk)
    princess: np.ndarray  # field + card to the hand
    emperor: np.ndarray | None  # keep and draw again (emperor rule "draw_again")
    semimaru: np.ndarray | None  # Semimaru under "skip_turn" or "others_to_field"


def _tracked(rules: Rules) -> list[int]:
    """The effect codes a Step carries masks for, in Step's field order."""
    codes = [MONK, PRINCESS]
    codes.append(KEEP_EXTRA if rules.emperor is EmperorRule.DRAW_AGAIN else -1)
    codes.append(
        {SemimaruRule.SKIP_TURN: SEMI_SKIP, SemimaruRule.OTHERS_TO_FIELD: SEMI_OTHERS}.get(
            rules.semimaru, -1
        )
    )
    return codes


def turn_order_is_fixed(rules: Rules) -> bool:
    """No extra draws and no lost turns: seat t mod players draws card t in every game."""
    return (
        rules.emperor is EmperorRule.NOBLE
        and not rules.princess_extra_draw
        and rules.semimaru is not SemimaruRule.SKIP_TURN
    )


class Outcome(NamedTuple):
    hands: np.ndarray  # (games, players) cards each seat holds at the end
    field: np.ndarray  # (games,) cards left in the field
    biggest_move: np.ndarray  # (games,) most cards one draw moved (into or out of the field)


def _run(rules: Rules, games: int, steps: Iterable[Step]) -> Outcome:
    """Play `games` games, one card per step for all of them."""
    if turn_order_is_fixed(rules):
        return _run_in_step(rules, games, steps)
    players = rules.players
    # Counts never pass 100, so int8 holds them (and halves the memory traffic of int16).
    hands = np.zeros(games * players, dtype=np.int8)  # flat: game g, seat s at g*players+s
    grid = hands.reshape(games, players)
    field = np.zeros(games, dtype=np.int8)
    biggest_move = np.zeros(games, dtype=np.int8)
    to_act = np.zeros(games, dtype=np.intp)
    base = np.arange(games, dtype=np.intp) * players
    skip_seat = np.full(games, -1, dtype=np.intp)
    next_seat = np.roll(np.arange(players, dtype=np.intp), -1)  # seat s -> s + 1, wrapping
    use_skip = rules.semimaru is SemimaruRule.SKIP_TURN
    use_others = rules.semimaru is SemimaruRule.OTHERS_TO_FIELD
    use_princess = rules.princess_extra_draw
    any_extra = use_princess or rules.emperor is EmperorRule.DRAW_AGAIN

    for monk, princess, emperor, semimaru in steps:
        slot = base + to_act
        hand_plus_card = hands[slot] + 1
        # Monk: hand + card to the field. Princess: field + card to the hand. Else keep.
        hands[slot] = np.where(monk, 0, hand_plus_card + princess * field)
        moved = np.where(monk, hand_plus_card, princess * (field + 1))
        np.maximum(biggest_move, moved, out=biggest_move)
        extra = princess & (field == 0) if use_princess else None
        field = np.where(princess, 0, field + monk * hand_plus_card)

        if use_others:
            games_hit = np.flatnonzero(semimaru)
            if games_hit.size:
                drawer = to_act[games_hit]
                kept = grid[games_hit, drawer]
                others = grid[games_hit].sum(axis=1) - kept
                field[games_hit] += others
                biggest_move[games_hit] = np.maximum(biggest_move[games_hit], others)
                grid[games_hit] = 0
                grid[games_hit, drawer] = kept
        if use_skip:
            skip_seat = np.where(semimaru, to_act, skip_seat)

        following = next_seat.take(to_act)
        if any_extra:
            if emperor is not None:
                extra = emperor if extra is None else extra | emperor
            following = np.where(extra, to_act, following)
        if use_skip:
            skipped = following == skip_seat  # never the drawer: Semimaru gives no extra draw
            following = np.where(skipped, next_seat.take(following), following)
            skip_seat = np.where(skipped, -1, skip_seat)
        to_act = following
    return Outcome(grid, field, biggest_move)


def _run_in_step(rules: Rules, games: int, steps: Iterable[Step]) -> Outcome:
    """`_run` for rules that never change the turn order (no extra draws, no lost turns):
    at step t every game waits on seat t mod players, so each step works on one
    contiguous row of hand counts instead of gathering and scattering a hand per game."""
    players = rules.players
    hands = np.zeros((players, games), dtype=np.int8)
    field = np.zeros(games, dtype=np.int8)
    biggest_move = np.zeros(games, dtype=np.int8)
    use_others = rules.semimaru is SemimaruRule.OTHERS_TO_FIELD
    for step, (monk, princess, _emperor, semimaru) in enumerate(steps):
        seat = step % players
        hand_plus_card = hands[seat] + 1
        hands[seat] = np.where(monk, 0, hand_plus_card + princess * field)
        moved = np.where(monk, hand_plus_card, princess * (field + 1))
        np.maximum(biggest_move, moved, out=biggest_move)
        field = np.where(princess, 0, field + monk * hand_plus_card)
        if use_others:
            games_hit = np.flatnonzero(semimaru)
            if games_hit.size:
                kept = hands[seat, games_hit]
                others = hands[:, games_hit].sum(axis=0) - kept
                field[games_hit] += others
                biggest_move[games_hit] = np.maximum(biggest_move[games_hit], others)
                hands[:, games_hit] = 0
                hands[seat, games_hit] = kept
    return Outcome(np.ascontiguousarray(hands.T), field, biggest_move)


def final_counts(rules: Rules, orders: np.ndarray) -> Outcome:
    """How games on explicit piles of poem numbers (games, cards), top card first, end:
    the path the engine-agreement test uses."""
    orders = np.asarray(orders)
    effects = np.ascontiguousarray(effect_table(rules)[CARD_CLASS[orders]].T)
    codes = _tracked(rules)
    steps = (Step(*(row == code if code >= 0 else None for code in codes)) for row in effects)
    return _run(rules, orders.shape[0], steps)


def random_steps(rules: Rules, games: int, rng: np.random.Generator) -> Iterator[Step]:
    """Per card drawn, what it does in each of `games` independently shuffled decks.

    Rather than shuffle whole decks, each step draws a uniformly random card from what
    is left of every game's pile: with r cards left, a uniform integer u in [0, r) picks
    the class whose share of the remaining cards it falls in (classes laid end to end:
    monks first, then princesses, ...; the plain keepers last, uncounted). That is the
    same distribution as a shuffled deck, at a few operations per step instead of a
    shuffle of 100 cards per game.
    """
    deck = effect_table(rules)[DECK_CLASSES]
    codes = _tracked(rules)
    counted = [code for code in codes if code >= 0]
    left = [np.full(games, np.count_nonzero(deck == code), dtype=np.int8) for code in counted]
    for remaining in range(deck.size, 0, -1):
        pick = rng.integers(0, remaining, games, dtype=np.int8)
        bounds = [left[0]]
        for count in left[1:]:
            bounds.append(bounds[-1] + count)
        below = [pick < bound for bound in bounds]  # nested: each contains the one before
        chosen = [below[0]] + [outer ^ inner for inner, outer in pairwise(below)]
        for count, mask in zip(left, chosen, strict=True):
            count -= mask
        masks = iter(chosen)
        yield Step(*(next(masks) if code >= 0 else None for code in codes))


def step_codes(rules: Rules, steps: Iterable[Step]) -> np.ndarray:
    """(steps, games) effect codes back from Steps (for checking the sampler)."""
    rows = []
    for step in steps:
        row = np.full(step.monk.shape, KEEP, dtype=np.int8)
        for code, mask in zip(_tracked(rules), step, strict=True):
            if mask is not None:
                row[mask] = code
        rows.append(row)
    return np.array(rows)


@dataclass(frozen=True)
class Figures:
    """What a run of many games shows. Rates are fractions of all games.

    Ties for first are counted three ways: `sole_first` (this seat alone has the most
    cards), `shared_first` (this seat has the most cards, alone or tied) and `first_share`
    (a tie for first among k seats counts 1/k to each, so the seats sum to 1).
    """

    games: int
    seed: int
    settings: dict
    sole_first: list[float]
    shared_first: list[float]
    first_share: list[float]
    draw_rate: float  # a tie for first place
    winner_mean_cards: float  # the most cards any seat holds, averaged over all games
    sole_winner_mean_cards: float  # the same over games with one winner only
    field_mean_cards: float  # cards left in the field (nobody's)
    # The most cards a single draw moved in a game (a monk's hand to the field, a princess
    # taking the field, Semimaru sending the others' hands), averaged over games: how far
    # one card can swing the ranking.
    biggest_move_mean: float
    seconds: float
    random_first: bool = False  # True only for the comparison mode of `simulate`

    def to_dict(self) -> dict:
        return asdict(self)


def summarise(rules: Rules, outcome: Outcome, seed: int, seconds: float) -> Figures:
    hands = outcome.hands
    games = hands.shape[0]
    most = hands.max(axis=1)
    at_most = hands == most[:, None]
    tied = at_most.sum(axis=1)
    sole = at_most & (tied == 1)[:, None]
    return Figures(
        games=games,
        seed=seed,
        settings=rules.to_settings(),
        sole_first=(sole.sum(axis=0) / games).tolist(),
        shared_first=(at_most.sum(axis=0) / games).tolist(),
        first_share=((at_most / tied[:, None]).sum(axis=0) / games).tolist(),
        draw_rate=float((tied > 1).mean()),
        winner_mean_cards=float(most.mean()),
        sole_winner_mean_cards=float(most[tied == 1].mean()) if (tied == 1).any() else 0.0,
        field_mean_cards=float(outcome.field.mean()),
        biggest_move_mean=float(outcome.biggest_move.mean()),
        seconds=seconds,
    )


def simulate(rules: Rules, games: int, seed: int, *, random_first: bool = False) -> Figures:
    """Play `games` random games under `rules` (one NumPy generator seeded with `seed`).

    The site always lets red (seat 0) draw first. `random_first` instead picks the first
    player at random in each game and reports seats by their colour, which is not how the
    site plays: it is there to compare with simulations that did so (the game is the same
    under relabelling the seats, so this rotates each game's hands by a random offset).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    sizes = [min(CHUNK, games - offset) for offset in range(0, games, CHUNK)]
    parts = [_run(rules, size, random_steps(rules, size, rng)) for size in sizes]
    outcome = Outcome(*(np.concatenate(arrays) for arrays in zip(*parts, strict=True)))
    if random_first:
        first = rng.integers(0, rules.players, games)
        seats = (np.arange(rules.players)[None, :] - first[:, None]) % rules.players
        outcome = outcome._replace(hands=np.take_along_axis(outcome.hands, seats, axis=1))
    figures = summarise(rules, outcome, seed, seconds=0.0)
    return replace(figures, random_first=random_first, seconds=time.perf_counter() - started)
