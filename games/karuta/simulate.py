"""CPU self-play through the real engine and CPU policy: the reference path for the ladder.

Pure Python: the CPUs' own randomness comes from a generator seeded from the game
seed, so a self-play game is a function of (levels, seed, settings). `games.karuta.sim`
plays the same model vectorised in NumPy (about 20× faster); the tests check that the
two agree within sampling error.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.karuta import cpu, engine, stats

LADDER_SETTINGS: dict[str, Any] = {"mode": "competitive", "memorise_seconds": 0}

# on_touch(seat, t - deciding kana, t - end of the upper verse) for each touch on the read card
TouchHook = Callable[[int, int, int], None]
# on_events(events) after every action: what the engine said (genpei's figures read results)
EventsHook = Callable[[list[dict[str, Any]]], None]


def play(
    levels: Sequence[str],
    seed: int,
    settings: Mapping[str, Any] | None = None,
    max_actions: int = 100_000,
    on_touch: TouchHook | None = None,
    on_events: EventsHook | None = None,
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
        view = engine.view(state, seat)
        action = cpu.cpu_policy(view, seat, levels[seat], rng)
        r = view["reading"]
        if on_touch and action["type"] == "touch" and action["card"] == r["poem"]:
            on_touch(seat, action["t"] - r["decided"], action["t"] - r["kami"]["end"])
        state, events = engine.apply(state, seat, action)
        if on_events:
            on_events(events)
    raise RuntimeError("a self-play game did not end")


@dataclass
class Ladder:
    """Win counts and per-level figures of CPU-vs-CPU competitive games (either path)."""

    levels: tuple[str, ...]
    games: int
    wins: dict[tuple[str, str], int] = field(default_factory=dict)
    played: dict[tuple[str, str], int] = field(default_factory=dict)
    reach_sum: dict[str, float] = field(default_factory=dict)
    reach_n: dict[str, int] = field(default_factory=dict)
    otetsuki: dict[str, int] = field(default_factory=dict)
    readings: dict[str, int] = field(default_factory=dict)
    # Every touch on the read card, in ms after the deciding kana / the end of the upper verse
    # (its held last kana over).
    after_decided: dict[str, list[float]] = field(default_factory=dict)
    after_verse: dict[str, list[float]] = field(default_factory=dict)
    # Each game's mean of after_decided, per level: the sampling unit when comparing paths,
    # since a CPU's form (cpu.form_factor) ties the touches of one game together.
    game_means: dict[str, list[float]] = field(default_factory=dict)
    # Each game's length in readings, per match-up (a, b) as match_up was called.
    lengths: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def win_rate(self, a: str, b: str) -> float | None:
        played = self.played.get((a, b), 0)
        return self.wins.get((a, b), 0) / played if played else None

    def figures(self, level: str) -> dict[str, Any]:
        summary = stats.tally_summary(
            {
                "reach_sum": self.reach_sum.get(level, 0),
                "reach_n": self.reach_n.get(level, 0),
                "otetsuki": self.otetsuki.get(level, 0),
                "readings": self.readings.get(level, 0),
            }
        )
        summary["after_decided"] = stats.distribution(self.after_decided.get(level, []))
        summary["after_verse"] = stats.distribution(self.after_verse.get(level, []))
        return summary

    def add_game(self, levels: Sequence[str], winner: int, tallies: Sequence[Mapping]) -> None:
        a, b = levels
        for pair in ((a, b), (b, a)):
            self.played[pair] = self.played.get(pair, 0) + 1
        winner_level, loser = levels[winner], levels[1 - winner]
        self.wins[(winner_level, loser)] = self.wins.get((winner_level, loser), 0) + 1
        for level, tally in zip(levels, tallies, strict=True):
            for key in ("reach_sum", "reach_n", "otetsuki", "readings"):
                store = getattr(self, key)
                store[level] = store.get(level, 0) + tally[key]

    def add_touch(self, level: str, after_decided: float, after_verse: float) -> None:
        self.after_decided.setdefault(level, []).append(after_decided)
        self.after_verse.setdefault(level, []).append(after_verse)

    def add_game_mean(self, level: str, after_decided: Sequence[float]) -> None:
        if len(after_decided):
            self.game_means.setdefault(level, []).append(sum(after_decided) / len(after_decided))


def match_up(a: str, b: str, games: int, seed: int, ladder: Ladder | None = None) -> Ladder:
    """`games` games of level a against level b, seats alternating; results added to `ladder`."""
    ladder = ladder or Ladder(levels=(a, b), games=games)
    for g in range(games):
        levels = (a, b) if g % 2 == 0 else (b, a)

        mine: list[list[int]] = [[], []]

        def note(seat: int, decided: int, verse: int, levels=levels, mine=mine) -> None:
            ladder.add_touch(levels[seat], decided, verse)
            mine[seat].append(decided)

        final = play(levels, seed=seed * 100_003 + g, on_touch=note)
        ladder.add_game(levels, final["winner"], final["tally"])
        ladder.lengths.setdefault((a, b), []).append(len(final["read"]))
        for seat, level in enumerate(levels):
            ladder.add_game_mean(level, mine[seat])
    return ladder


def full_ladder(games: int, seed: int, levels: Sequence[str] = cpu.LEVEL_ORDER) -> Ladder:
    """Every pair of distinct levels plays `games` games (a 5×5 table; the diagonal stays empty)."""
    ladder = Ladder(levels=tuple(levels), games=games)
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            match_up(a, b, games, seed=seed * 31 + i * 7 + levels.index(b), ladder=ladder)
    return ladder
