"""Table games in an event (genpei 2 v 2, Bozu for four, Bakudan for three to five), pure
(no Django, no clock, no randomness).

Seating a round: the entrants in standings order (round 1: seeding, by rating) are cut into
tables of `seats` neighbours, leaders at the first table, so people meet others of their
level. The field rarely divides evenly: there are ceil(n / seats) tables, the entrants
spread over them as evenly as possible (fuller tables first) and the empty seats are the
CPU's (nobody sits a round out; 9 for tables of four sit 3, 3, 3 with a CPU each).
Genpei tables: the CPU's seats are split between the two teams, and the people into the
teams whose rating sums are closest (the lobby's `balanced_teams`).

Points: a seat scores one point for every seat that finished behind it (the match layer's
places: ties share a place, forfeited seats come last). So at a table of four the places
1-2-3-4 score 3-2-1-0, a shared first place 2 each, and in genpei each of the winning team
scores 2 and each of the losers 0; one against one it is a win 1, a loss 0. CPU seats score
for nobody but count as seats beaten or beating.

From round 2 on, people are swapped between neighbouring tables where that seats fewer
people together who have shared a table before (`mix`: greedy, at most three tables from
their place). In a small field some meet again anyway (eight people at two tables of four
cannot avoid it).

Standings: points, then first places, then rating, then who joined first.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from lobby.pairing import balanced_teams

from .arena import DRAW, LOSS, WIN

CPU = None  # an empty seat, played by the CPU


def table_sizes(n: int, seats: int) -> list[int]:
    """How many entrants sit at each table: ceil(n / seats) tables, the entrants spread as
    evenly as possible (the fuller tables first), so the CPUs' seats are too."""
    if seats < 2:
        raise ValueError("a table has two seats or more")
    if n <= 0:
        return []
    tables = -(-n // seats)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seat_tables(
    ordered: Sequence[Hashable],
    seats: int,
    ratings: dict[Hashable, float] | None = None,
    teams: Sequence[int] = (),
    met: set[frozenset] | None = None,
) -> list[list[Hashable | None]]:
    """Tables from entrant ids in standings order: each a list of `seats` ids by seat index,
    CPU (None) for an empty seat. With `met` (pairs who have sat at a table together) people
    are swapped between neighbouring tables where that seats fewer such pairs together
    (`mix`). With `teams` (genpei) each table's seats are ordered as the two most even
    teams by `ratings`."""
    out: list[list[Hashable | None]] = []
    start = 0
    for size in table_sizes(len(ordered), seats):
        table: list[Hashable | None] = list(ordered[start : start + size])
        start += size
        out.append(table + [CPU] * (seats - size))
    if met:
        out = mix(out, met)
    if teams:
        out = [_balanced(table, ratings or {}, teams) for table in out]
    return out


def met_pairs(played: Sequence[Played]) -> set[frozenset]:
    """Every pair of people who have sat at a table together."""
    pairs: set[frozenset] = set()
    for table in played:
        people = [x for x in table.seats if x is not CPU]
        pairs.update(frozenset((a, b)) for i, a in enumerate(people) for b in people[i + 1 :])
    return pairs


def repeats(table: Sequence[Hashable | None], met: set[frozenset]) -> int:
    people = [x for x in table if x is not CPU]
    return sum(frozenset((a, b)) in met for i, a in enumerate(people) for b in people[i + 1 :])


def mix(tables: list[list], met: set[frozenset], passes: int = 3) -> list[list]:
    """Fewer people who have met at one table: down the tables, each pair of neighbouring
    tables swaps the two people (never a CPU's seat) whose swap seats the fewest met pairs at
    the two, if fewer than now (the first such swap in seat order on a tie); up to `passes`
    times down, so nobody moves more than that many tables from their place in the
    standings. Greedy, not the least possible; deterministic."""
    tables = [list(t) for t in tables]
    for _ in range(passes):
        improved = False
        for i in range(len(tables) - 1):
            a, b = tables[i], tables[i + 1]
            best, chosen = repeats(a, met) + repeats(b, met), None
            for ia, x in enumerate(a):
                for ib, y in enumerate(b):
                    if x is CPU or y is CPU:
                        continue
                    a2, b2 = a[:], b[:]
                    a2[ia], b2[ib] = y, x
                    count = repeats(a2, met) + repeats(b2, met)
                    if count < best:
                        best, chosen = count, (a2, b2)
            if chosen:
                tables[i], tables[i + 1] = chosen
                improved = True
        if not improved:
            break
    return tables


def _balanced(table: list, ratings: dict, teams: Sequence[int]) -> list:
    """Genpei: the CPU's seats split between the teams (the odd one to the second), and
    the people into the two teams whose rating sums are closest (the lobby's
    `balanced_teams`), each team's people first, then its CPU seats."""
    people = [x for x in table if x is not CPU]
    cpus = len(table) - len(people)
    second_cpus = -(-cpus // 2)
    first_cpus = cpus - second_cpus
    sizes = (teams[0] - first_cpus, teams[1] - second_cpus)
    order = balanced_teams([ratings.get(x, 1500.0) for x in people], sizes)
    chosen = [people[i] for i in order]
    return [*chosen[: sizes[0]], *[CPU] * first_cpus, *chosen[sizes[0] :], *[CPU] * second_cpus]


def points(places: Sequence[int]) -> list[int]:
    """Each seat's points: the seats that finished strictly behind it."""
    return [sum(1 for other in places if other > mine) for mine in places]


@dataclass(frozen=True)
class Standing:
    id: Hashable
    points: int
    firsts: int
    games: int
    rating: float
    order: int


@dataclass(frozen=True)
class Played:
    """One finished table: entrant ids by seat (None: the CPU) and each seat's place."""

    seats: Sequence[Hashable | None]
    places: Sequence[int]


def standings(
    entrants: Sequence[tuple[Hashable, float, int]], played: Sequence[Played]
) -> list[Standing]:
    """Standings from (id, rating, entry order) and the finished tables; a table's seat of
    someone not in `entrants` (withdrawn) is skipped."""
    tally = {eid: [0, 0, 0] for eid, _rating, _order in entrants}
    for table in played:
        for eid, place, got in zip(table.seats, table.places, points(table.places), strict=True):
            if eid is CPU or eid not in tally:
                continue
            tally[eid][0] += got
            tally[eid][1] += place == 1
            tally[eid][2] += 1
    rows = [
        Standing(eid, tally[eid][0], tally[eid][1], tally[eid][2], rating, order)
        for eid, rating, order in entrants
    ]
    rows.sort(key=lambda s: (-s.points, -s.firsts, -s.rating, s.order))
    return rows


def arena_result(place: int, seats: int) -> str:
    """A table's place as an arena result (events.arena): a first place is a win (shared
    too: genpei's winning team), a place in the top half a draw, any other a loss; lichess's
    scoring and streaks then apply unchanged. At four: 1st 2 points, 2nd 1, 3rd and 4th 0."""
    if place == 1:
        return WIN
    return DRAW if place <= seats / 2 else LOSS
