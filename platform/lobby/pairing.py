"""Pairing one pool wave: who plays whom. Pure (no Django, no clock, no randomness).

A wave takes the members waiting in one pool and returns groups. Two-seat pools are paired
by maximum-weight matching (Edmonds' blossom algorithm, compiled: rustworkx's
`max_weight_matching`) over the pairs that may meet: as many games as possible first,
then the smallest rating gaps, with every missed wave lowering a member's gaps by
MISS_BONUS (lichess's +12 per missed wave).
A pair may meet only while its gap is within both members' allowance, which starts at
START_GAP and grows by GROWTH_PER_MISS per missed wave, and within each member's own rating
range if they chose one. Tables (three seats or more) are filled in rating order. Nobody
meets the person they played last, and an account the fair-play check flagged meets only
other flagged accounts (fairplay.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx
import rustworkx as rx

START_GAP = 150  # rating points two members may differ by in their first wave
GROWTH_PER_MISS = 50  # ... and this much more for each wave the wider of them missed
MISS_BONUS = 12  # a missed wave counts as 12 rating points fewer of gap (lichess)
MISS_BONUS_CAP = 460  # lichess caps it too: a long wait does not beat any gap
WINDOW = 24  # members matched exactly together (see pair_wave)


@dataclass(frozen=True)
class Member:
    """One seeker in a wave. `person` names the human (a user id or a guest's session
    key, as a string); `last_opponents` the people of their previous game."""

    id: int
    person: str
    rating: float
    misses: int = 0
    rating_range: tuple[float, float] | None = None  # the opponents' ratings they accept
    last_opponents: frozenset[str] = frozenset()
    flagged: bool = False


def allowance(member: Member) -> float:
    return START_GAP + GROWTH_PER_MISS * member.misses


def _accepts(member: Member, other: Member) -> bool:
    if member.rating_range is None:
        return True
    low, high = member.rating_range
    return low <= other.rating <= high


def may_meet(a: Member, b: Member) -> bool:
    """Whether a and b may be seated together in this wave."""
    if a.person == b.person or a.flagged != b.flagged:
        return False
    if b.person in a.last_opponents or a.person in b.last_opponents:
        return False  # never the same two twice in a row
    if not (_accepts(a, b) and _accepts(b, a)):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= allowance(a) and gap <= allowance(b)


def pair_score(a: Member, b: Member) -> float:
    """Lower is better: the gap, less what each member's wait has earned."""
    bonus = min(MISS_BONUS * a.misses, MISS_BONUS_CAP) + min(MISS_BONUS * b.misses, MISS_BONUS_CAP)
    return abs(a.rating - b.rating) - bonus


def weight(a: Member, b: Member, ceiling: float) -> int:
    """The matching weight of a pair, in whole thousandths of a rating point (the compiled
    matcher takes integers). Always positive: cardinality comes first, so a good pair never
    leaves two other members unpaired."""
    return round(1000 * (ceiling - pair_score(a, b)))


def _edges(members: Sequence[Member]) -> list[tuple[int, int, int]]:
    """The pairs that may meet, as (index, index, weight), for members in rating order: a
    pair further apart than the lower member's allowance never meets (may_meet), nor does
    anyone further up, so each member's scan stops there."""
    ceiling = max((allowance(m) for m in members), default=0) + 1
    edges = []
    for i, a in enumerate(members):
        reach = a.rating + allowance(a)
        for j in range(i + 1, len(members)):
            b = members[j]
            if b.rating > reach:
                break
            if may_meet(a, b):
                edges.append((i, j, weight(a, b, ceiling)))
    return edges


def _match(members: Sequence[Member]) -> list[tuple[Member, Member]]:
    """A maximum-weight matching of these members (in rating order) among those of the
    greatest cardinality: rustworkx's blossom algorithm, compiled (Rust), the same
    algorithm as networkx's `max_weight_matching` (test_pairing compares the two)."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(members)))
    graph.add_edges_from(_edges(members))
    chosen = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return [tuple(sorted((members[x], members[y]), key=lambda m: m.id)) for x, y in chosen]


def match_networkx(members: Sequence[Member]) -> list[tuple[Member, Member]]:
    """The same matching by networkx (pure Python, ~100 times slower): the reference the
    tests and the bench compare `_match` with."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(members)))
    graph.add_weighted_edges_from(_edges(members))
    chosen = nx.max_weight_matching(graph, maxcardinality=True)
    return [tuple(sorted((members[x], members[y]), key=lambda m: m.id)) for x, y in chosen]


def pair_wave(members: Sequence[Member], match=None) -> list[tuple[Member, Member]]:
    """One-against-one: the most pairs possible, then the best total score. The unpaired
    members miss this wave. The result is sorted and does not depend on the input order.

    The matching is exact within a window of up to WINDOW members: a maximum-weight
    matching among those with the most pairs, for the integer weights of `weight`. A larger
    pool is matched in windows of WINDOW neighbours in rating order, then the members left
    unpaired at the windows' edges are matched again among themselves, so two neighbours
    split by a window boundary still meet; across windows the result is not proven optimal
    (a whole pool of 2,000 in one graph took 38 s even compiled; docs/lobby.md). `match`
    replaces the matcher (the bench times networkx's on the same windows).
    """
    left = sorted(members, key=lambda m: (m.rating, m.id))
    pairs: list[tuple[Member, Member]] = []
    for shift in (0, WINDOW // 2):  # the second pass's windows straddle the first's edges
        unpaired: list[Member] = []
        starts = [0, *range(shift or WINDOW, len(left), WINDOW)]
        for start, end in zip(starts, [*starts[1:], len(left)], strict=True):
            window = left[start:end]
            found = (match or _match)(window)
            pairs += found
            taken = {m.id for pair in found for m in pair}
            unpaired += [m for m in window if m.id not in taken]
        left = unpaired
    return sorted(pairs, key=lambda pair: pair[0].id)


def fill_tables(members: Sequence[Member], seats: int) -> list[tuple[Member, ...]]:
    """Tables of `seats`, each from neighbours in rating order, lowest first. A member who
    may not sit with someone already at the table (the previous game's opponents, a rating
    range, the allowance) is left for the next table; whoever is left over waits."""
    if seats < 2:
        raise ValueError("a table has two seats or more")
    tables: list[tuple[Member, ...]] = []
    for flagged in (False, True):
        group = [m for m in members if m.flagged == flagged]
        pending = sorted(group, key=lambda m: (m.rating, m.id))
        while len(pending) >= seats:
            table = [pending.pop(0)]
            for candidate in list(pending):
                if all(may_meet(candidate, seated) for seated in table):
                    table.append(candidate)
                    pending.remove(candidate)
                    if len(table) == seats:
                        break
            if len(table) == seats:
                tables.append(tuple(table))
            # else: the lowest-rated member found no table this wave; the rest go on
    return tables


def balanced_teams(ratings: Sequence[float], teams: Sequence[int]) -> list[int]:
    """The seat order that splits a table into two teams (the first teams[0] seats, then
    the rest, as genpei seats them) whose rating sums are closest: indexes into `ratings`.
    Ties go to the first split in index order, so the result is deterministic. For 2v2 in
    rating order a <= b <= c <= d this is always a + d against b + c."""
    if len(teams) != 2 or sum(teams) != len(ratings):
        raise ValueError("two team sizes adding up to the table's seats")
    everyone = range(len(ratings))
    total = sum(ratings)
    best: tuple[float, list[int]] | None = None
    for first in combinations(everyone, teams[0]):
        gap = abs(total - 2 * sum(ratings[i] for i in first))
        order = [*first, *(i for i in everyone if i not in first)]
        if best is None or gap < best[0]:
            best = (gap, order)
    assert best is not None
    return best[1]


def wave(members: Sequence[Member], seats: int) -> list[tuple[Member, ...]]:
    """The groups one wave seats: pairs for a two-seat pool, tables otherwise."""
    if seats == 2:
        return [tuple(pair) for pair in pair_wave(members)]
    return fill_tables(members, seats)
