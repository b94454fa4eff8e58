"""Whole CPU-only games, many of them: who survives, how long games last (pure, no Django).

Used by `manage.py bakudan_stats` and by the tests; the figures in engine.COMPOSITION's
comment come from here, and `behaviour` measures what each personality does at a table with
a person (where it puts bombs back, whom it pushes onto, when it peeks) for the page.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gamekit.events import Private
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


# --- how each personality behaves at a table with a person ------------------------------------

ESCAPES = ("dodge", "push", "bottom", "shuffle")  # what gets away from a known top bomb
TURN_ENDS = ("dodge", "push", "bottom")  # action cards that end the turn (as a draw does)
PEEK_FROM = cpu.PEEK_DANGER  # the tip: peek once danger passes 25%


@dataclass
class Behaviour:
    """What the CPUs did at vs-CPU tables (seat 0 the person, every other seat one
    personality), per personality: counts as [times it did it, chances]. A push's chance is
    a turn it ends holding a push, split by whether the next player is the person; a peek's
    is a decision holding a peek without knowing the top, split at PEEK_FROM; an escape's
    is a decision knowing the top is a bomb and holding a card that gets away from it."""

    games: int = 0
    placements: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: {"top": 0, "bottom": 0, "elsewhere": 0})
    )
    push_person: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    push_cpu: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    peek_high: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    peek_low: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    escape: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    person_survives: dict[str, list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )

    def placement_shares(self, level: str) -> dict[str, float]:
        counts = self.placements[level]
        total = sum(counts.values())
        return {where: (n / total if total else float("nan")) for where, n in counts.items()}

    @staticmethod
    def share(cell: list[int]) -> float:
        return cell[0] / cell[1] if cell[1] else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """The figures as the pages read them (data/cpu.json): shares, and the counts."""
        levels = sorted(self.placements.keys() | self.push_person.keys())
        out: dict[str, Any] = {"games": self.games, "levels": {}}
        for level in levels:
            out["levels"][level] = {
                "placements": self.placement_shares(level),
                "placements_n": sum(self.placements[level].values()),
                **{
                    name: {"share": self.share(cell), "n": cell[1]}
                    for name, cell in (
                        ("push_person", self.push_person[level]),
                        ("push_cpu", self.push_cpu[level]),
                        ("peek_high", self.peek_high[level]),
                        ("peek_low", self.peek_low[level]),
                        ("escape", self.escape[level]),
                        ("person_survives", self.person_survives[level]),
                    )
                },
            }
        return out


def _next_alive(view: dict[str, Any], seat: int) -> int:
    seats = view["seats"]
    for step in range(1, len(seats) + 1):
        other = (seat + step) % len(seats)
        if seats[other]["alive"]:
            return other
    return seat


def _record(b: Behaviour, level: str, view: dict[str, Any], action, events) -> None:
    seat = view["seat"]
    if view["pending"] is not None:
        placed = next(
            e.event for e in events if isinstance(e, Private) and e.event["type"] == "bomb_placed"
        )
        position, size = placed["position"], view["deck_count"]
        if size:  # an empty deck leaves one place, top and bottom at once: no choice made
            where = "top" if position == 0 else "bottom" if position == size else "elsewhere"
            b.placements[level][where] += 1
        return
    kinds = {card["id"]: card["kind"] for card in view["hand"]}
    kind = kinds.get(action.get("card")) if action["type"] == "play" else None
    held = set(kinds.values())
    notes = {note["position"]: note["card"]["kind"] for note in view["notes"]}
    if "push" in held and (action["type"] == "draw" or kind in TURN_ENDS):
        before_person = view["seats"][_next_alive(view, seat)]["human"]
        cell = (b.push_person if before_person else b.push_cpu)[level]
        cell[0] += kind == "push"
        cell[1] += 1
    if "peek" in held and 0 not in notes:
        cell = (b.peek_high if view["danger"] >= PEEK_FROM else b.peek_low)[level]
        cell[0] += kind == "peek"
        cell[1] += 1
    if notes.get(0) == "bomb" and held & set(ESCAPES):
        b.escape[level][0] += kind in ESCAPES
        b.escape[level][1] += 1


def behaviour(
    players: Sequence[int], games: int, seed: int, levels: tuple[str, ...] = cpu.PERSONALITIES
) -> Behaviour:
    """`games` vs-CPU games per personality and player count: seat 0 is the person, played
    by a stand-in (the calm policy, seen by the CPUs as a person), the other seats all
    that personality, as a game number's table seats them."""
    b = Behaviour()
    for level in levels:
        for count in players:
            seating: list[str | None] = [None, *[level] * (count - 1)]
            for n in range(games):
                state = engine.deal(count, seed * 1_000_003 + count * 10_007 + n, cpu=seating)
                for _ in range(10_000):
                    if state.over:
                        break
                    seat = state.to_act
                    view = engine.view(state, seat)
                    played = seating[seat] or cpu.CALM
                    action = cpu.choose(view, seat, played, engine.cpu_rng(state, seat))
                    state, events = engine.apply(state, seat, action)
                    if seating[seat] is not None:
                        _record(b, level, view, action, events)
                b.games += 1
                cell = b.person_survives[level]
                cell[0] += state.winner == 0
                cell[1] += 1
    return b
