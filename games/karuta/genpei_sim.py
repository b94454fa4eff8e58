"""Genpei-sen CPU team against CPU team through the real engine and CPU policy: balance and
game length (`manage.py karuta_genpei`). Pure Python, no Django.

A game is `simulate.play` with genpei settings (every seat a CPU of its team's level), so
it is a function of (levels, seed, settings). The length of a game is counted in readings
and in minutes of reading at its pace: each reading from the first sound of its preamble
(the 序歌, or the previous lower verse, the pause and the breath) to its resolution, the
take of the read card or, when nobody took it, its close. Sends and memorisation are not
counted: they are as quick or as slow as the people choosing.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.karuta import engine, reading, simulate

DEFAULT_GAMES = 2000
DEFAULT_SEED = 1
PACE = "standard"


@dataclass(frozen=True)
class MatchUp:
    """Team 0 of `first` (one level per seat) against team 1 of `second`. With `swap`, odd
    games seat `second` as team 0, so a side's advantage, if any, falls on both alike."""

    key: str
    first: tuple[str, ...]
    second: tuple[str, ...]
    swap: bool = False


@dataclass
class Tally:
    games: int = 0
    side_wins: list[int] = field(default_factory=lambda: [0, 0])  # by side (team 0, team 1)
    first_wins: int = 0  # games won by the match-up's `first` levels, wherever they sat
    readings: list[int] = field(default_factory=list)
    minutes: list[float] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        n = self.games
        side0 = self.side_wins[0] / n
        first = self.first_wins / n
        return {
            "games": n,
            "side_win_rate": [round(side0, 4), round(1 - side0, 4)],
            "first_win_rate": round(first, 4),
            "ci95": round(1.96 * math.sqrt(max(first * (1 - first), side0 * (1 - side0)) / n), 4),
            "median_readings": statistics.median(self.readings),
            "median_minutes": round(statistics.median(self.minutes), 1),
            "median_margin": statistics.median(self.margins),
        }


def reading_ms(result: dict[str, Any], prev: int | None) -> int:
    """How long one reading lasted: its preamble, then up to the take (or the close)."""
    lead_in = -reading.preamble(prev, PACE)[0]["start"]
    if result["t"] is not None:
        return lead_in + result["t"]
    return lead_in + reading.close_ms("competitive", result["poem"], PACE)


def play_one(first: Sequence[str], second: Sequence[str], seed: int) -> dict[str, Any]:
    """One game: team 0 of levels `first`, team 1 of `second`."""
    results: list[dict[str, Any]] = []

    def note(events: list[dict[str, Any]]) -> None:
        results.extend(e for e in events if e["type"] == "result")

    settings = {"mode": "genpei", "teams": [len(first), len(second)], "memorise_seconds": 0}
    final = simulate.play([*first, *second], seed=seed, settings=settings, on_events=note)
    total, prev = 0, reading.JOKA
    for result in results:
        total += reading_ms(result, prev)
        prev = result["poem"]
    outcome = engine.result(final)  # simulate.play returns only a finished game
    return {
        "readings": len(final["read"]),
        "minutes": total / 60000,
        "winner_team": outcome["winner_team"],
        "margin": outcome["margin"],
    }


def play_range(match_up: MatchUp, start: int, stop: int, seed: int) -> list[dict[str, Any]]:
    """Games `start` .. `stop` − 1 of a match-up (each seeded by its number: any split of the
    range over processes plays the same games)."""
    games = []
    for g in range(start, stop):
        swapped = match_up.swap and g % 2 == 1
        teams = (match_up.second, match_up.first) if swapped else (match_up.first, match_up.second)
        game = play_one(*teams, seed=seed * 1_000_003 + g)
        game["first_won"] = game["winner_team"] == (1 if swapped else 0)
        games.append(game)
    return games


def tally(games: Sequence[dict[str, Any]]) -> Tally:
    out = Tally()
    for game in games:
        out.games += 1
        out.side_wins[game["winner_team"]] += 1
        out.first_wins += int(game["first_won"])
        out.readings.append(game["readings"])
        out.minutes.append(game["minutes"])
        out.margins.append(game["margin"])
    return out


def match_ups() -> list[MatchUp]:
    """What the command measures: equal teams of ふつう at 1v1, 2v2 and 4v4 (balance by side,
    and the length figures), a 名人 pair against a ふつう pair, four ふつう against two."""
    return [
        MatchUp("1v1", ("futsu",), ("futsu",)),
        MatchUp("2v2", ("futsu",) * 2, ("futsu",) * 2),
        MatchUp("4v4", ("futsu",) * 4, ("futsu",) * 4),
        MatchUp("meijin2_v_futsu2", ("meijin",) * 2, ("futsu",) * 2, swap=True),
        MatchUp("futsu4_v_futsu2", ("futsu",) * 4, ("futsu",) * 2, swap=True),
    ]
