"""CPU self-play through the real engine and CPU policy: the ladder, the benchmark, tests.

Pure Python: the CPUs' own randomness comes from a generator seeded from the game
seed, so a self-play game is a function of (levels, seed, settings).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.karuta import cpu, engine, stats

LADDER_SETTINGS: dict[str, Any] = {"mode": "competitive", "memorise_seconds": 0}


def play(
    levels: Sequence[str],
    seed: int,
    settings: Mapping[str, Any] | None = None,
    max_actions: int = 100_000,
) -> engine.State:
    """Play a whole game between CPUs of `levels` (one per seat) and return the final state."""
    chosen = {**LADDER_SETTINGS, **(settings or {})}
    chosen.setdefault("players", len(levels))
    seats = [{"is_cpu": True, "level": level} for level in levels]
    state = engine.new_state(chosen, seats, seed)
    rng = random.Random(f"karuta-cpu/{seed}")
    for _ in range(max_actions):
        waiting = engine.to_act(state)
        if not waiting:
            return state
        seat = waiting[0]
        action = cpu.cpu_policy(engine.view(state, seat), seat, levels[seat], rng)
        state, _ = engine.apply(state, seat, action)
    raise RuntimeError("a self-play game did not end")


@dataclass
class Ladder:
    levels: tuple[str, ...]
    games: int
    wins: dict[tuple[str, str], int] = field(default_factory=dict)
    played: dict[tuple[str, str], int] = field(default_factory=dict)
    reach_sum: dict[str, float] = field(default_factory=dict)
    reach_n: dict[str, int] = field(default_factory=dict)
    otetsuki: dict[str, int] = field(default_factory=dict)
    readings: dict[str, int] = field(default_factory=dict)

    def win_rate(self, a: str, b: str) -> float | None:
        played = self.played.get((a, b), 0)
        return self.wins.get((a, b), 0) / played if played else None

    def figures(self, level: str) -> dict[str, float | None]:
        return stats.tally_summary(
            {
                "reach_sum": self.reach_sum.get(level, 0),
                "reach_n": self.reach_n.get(level, 0),
                "otetsuki": self.otetsuki.get(level, 0),
                "readings": self.readings.get(level, 0),
            }
        )


def match_up(a: str, b: str, games: int, seed: int, ladder: Ladder | None = None) -> Ladder:
    """`games` games of level a against level b, seats alternating; results added to `ladder`."""
    ladder = ladder or Ladder(levels=(a, b), games=games)
    for g in range(games):
        levels = (a, b) if g % 2 == 0 else (b, a)
        final = play(levels, seed=seed * 100_003 + g)
        winner_level = levels[final["winner"]]
        for pair in ((a, b), (b, a)):
            ladder.played[pair] = ladder.played.get(pair, 0) + 1
        loser = b if winner_level == a else a
        ladder.wins[(winner_level, loser)] = ladder.wins.get((winner_level, loser), 0) + 1
        for seat, level in enumerate(levels):
            tally = final["tally"][seat]
            ladder.reach_sum[level] = ladder.reach_sum.get(level, 0) + tally["reach_sum"]
            ladder.reach_n[level] = ladder.reach_n.get(level, 0) + tally["reach_n"]
            ladder.otetsuki[level] = ladder.otetsuki.get(level, 0) + tally["otetsuki"]
            ladder.readings[level] = ladder.readings.get(level, 0) + tally["readings"]
    return ladder


def full_ladder(games: int, seed: int, levels: Sequence[str] = cpu.LEVEL_ORDER) -> Ladder:
    """Every pair of distinct levels plays `games` games (a 5×5 table; the diagonal stays empty)."""
    ladder = Ladder(levels=tuple(levels), games=games)
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            match_up(a, b, games, seed=seed * 31 + i * 7 + levels.index(b), ladder=ladder)
    return ladder
