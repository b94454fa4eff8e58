"""Single-elimination brackets, pure (no Django, no clock, no randomness).

Seeding: entrants are ranked by rating, highest first; equal ratings by the order they
entered (earlier first). Seed 1 is the best. The bracket has P = the next power of two
>= n slots; seeds n+1 .. P are empty, so the P - n best seeds get a bye in round 1, as
a taikai does (the empty slots are the ones the top seeds would have met). Slots follow the
standard order (for 8: 1-8, 4-5, 2-7, 3-6), so seeds 1 and 2 can only meet in the final,
1-4 only in a semi-final, and so on. A bye is a win without a game; from round 2 on there
are no byes (every pair of slots holds a winner). Round r has P / 2**r pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass


class BracketError(ValueError):
    """A bracket asked of too few entrants, or a round advanced before it was decided."""


@dataclass(frozen=True)
class Entrant:
    id: Hashable
    rating: float
    order: int  # when they entered: breaks equal ratings, earlier first


@dataclass(frozen=True)
class Pair:
    """One position of a round: two entrants, or one and a bye (b is None)."""

    a: Hashable
    b: Hashable | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


def seed(entrants: Sequence[Entrant]) -> list[Hashable]:
    """Entrant ids by seed: rating high to low, then entry order."""
    ranked = sorted(entrants, key=lambda e: (-e.rating, e.order))
    return [e.id for e in ranked]


def bracket_size(n: int) -> int:
    if n < 2:
        raise BracketError("a knockout needs at least two entrants")
    return 1 << (n - 1).bit_length()


def slot_seeds(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 1, size, size/2, size/2+1, ... each pair
    sums to size + 1 and the halves are balanced."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed_no in order for s in (seed_no, total - seed_no)]
    return order


def rounds_for(n: int) -> int:
    return bracket_size(n).bit_length() - 1


def first_round(seeded: Sequence[Hashable]) -> list[Pair]:
    """Round 1 from the ids in seed order: byes go to the top seeds."""
    size = bracket_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in slot_seeds(size)]
    pairs = []
    for a, b in zip(slots[0::2], slots[1::2], strict=True):
        # The better seed is always in the first slot of a pair, so an empty slot is b.
        pairs.append(Pair(a, b))
    return pairs


def winners_of(pairs: Sequence[Pair], results: Mapping[int, Hashable]) -> list[Hashable]:
    """The winner of every position: a bye's entrant, else results[position]."""
    winners = []
    for position, pair in enumerate(pairs):
        if pair.is_bye:
            winners.append(pair.a)
            continue
        if position not in results:
            raise BracketError(f"position {position} is not decided")
        winner = results[position]
        if winner not in (pair.a, pair.b):
            raise BracketError(f"{winner!r} did not play at position {position}")
        winners.append(winner)
    return winners


def next_round(pairs: Sequence[Pair], results: Mapping[int, Hashable]) -> list[Pair]:
    """The winners of positions 2k and 2k+1 meet at position k of the next round."""
    if len(pairs) < 2:
        raise BracketError("the final has no next round")
    winners = winners_of(pairs, results)
    return [Pair(a, b) for a, b in zip(winners[0::2], winners[1::2], strict=True)]


def champion(final: Sequence[Pair], results: Mapping[int, Hashable]) -> Hashable:
    if len(final) != 1:
        raise BracketError("only the final decides the champion")
    return winners_of(final, results)[0]
