"""Whole CPU-only games, many of them: who survives, how long games last (pure, no Django).

Used by `manage.py bakudan_stats` and by the tests; the figures in engine.COMPOSITION's
comment come from here.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field

from games.bakudan import cpu, engine


@dataclass
class Figures:
    players: int
    games: int = 0
    # (personality, seat) -> [wins, games]
    wins: dict[tuple[str, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    turn_ends: list[int] = field(default_factory=list)
    gaps: list[list[int]] = field(default_factory=list)  # turn-ends before each elimination
    seconds: float = 0.0

    def rate(self, level: str, seat: int | None = None) -> float:
        keys = [k for k in self.wins if k[0] == level and (seat is None or k[1] == seat)]
        won = sum(self.wins[k][0] for k in keys)
        played = sum(self.wins[k][1] for k in keys)
        return won / played if played else float("nan")

    def played(self, level: str) -> int:
        return sum(v[1] for k, v in self.wins.items() if k[0] == level)

    def mean_turn_ends(self) -> float:
        return statistics.fmean(self.turn_ends)

    def median_turn_ends(self) -> float:
        return statistics.median(self.turn_ends)

    def mean_gaps(self) -> list[float]:
        """Mean turn-ends from the start (or the previous elimination) to each elimination."""
        return [statistics.fmean(g[n] for g in self.gaps) for n in range(self.players - 1)]


def tables(players: int, levels: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every assignment of the personalities to the seats (each personality equally often
    in each seat)."""
    return list(itertools.product(levels, repeat=players))


def play_game(levels: tuple[str, ...], seed: int) -> engine.BakudanState:
    state = engine.deal(len(levels), seed, cpu=list(levels))
    state, _events = engine.play_out(state, cpu.seat_policy(list(levels)))
    return state


def simulate(
    players: int, games: int, seed: int, levels: tuple[str, ...] = cpu.PERSONALITIES
) -> Figures:
    """`games` games at `players` seats, cycling through every seating of `levels`."""
    figures = Figures(players)
    start = time.perf_counter()
    seatings = tables(players, levels)
    for n in range(games):
        seating = seatings[n % len(seatings)]
        state = play_game(seating, seed * 1_000_003 + n)
        figures.games += 1
        for seat, level in enumerate(seating):
            cell = figures.wins[(level, seat)]
            cell[1] += 1
            cell[0] += state.winner == seat
        figures.turn_ends.append(state.turn_ends)
        turns = [0, *state.elimination_turns]
        figures.gaps.append([b - a for a, b in itertools.pairwise(turns)])
    figures.seconds = time.perf_counter() - start
    return figures
