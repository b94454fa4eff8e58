"""Swiss rounds, pure (no Django, no clock, no randomness).

Pairing is the FIDE Dutch system from caissify-pairings (a maintained library, checked
against the FIDE-endorsed bbpPairings): score groups, top half against bottom half, no two
players meet twice, at most one bye each, the bye (a win, 1 point) to the lowest-ranked
player of the lowest score group who has not had one. Karuta has no colours; the library's
white/black only decide which seat each player takes.

Scores: a win 1, a loss 0, a bye 1 (a forfeit win is a win). Standings, in order:
1. score; 2. Buchholz: the sum of the scores of the opponents met (a bye adds nothing);
3. Sonneborn-Berger: the sum of the scores of the opponents beaten; 4. wins;
5. seed (rating high to low, then entry order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from caissify_pairings import generate_pairings

from .knockout import Entrant, seed


class SwissError(ValueError):
    """No pairing exists (too many rounds for the field) or bad input."""


@dataclass(frozen=True)
class Game:
    """One board of a played round: b is None for a bye (a wins it)."""

    a: int
    b: int | None
    winner: int | None  # None only while unplayed

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True)
class Standing:
    id: int
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    seed: int


def max_rounds(entrants: int) -> int:
    """A field of n can meet without repeats for at most n - 1 rounds (n even) or n."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def scores(entrant_ids: Sequence[int], rounds: Sequence[Sequence[Game]]) -> dict[int, float]:
    totals = dict.fromkeys(entrant_ids, 0.0)
    for games in rounds:
        for game in games:
            if game.winner is not None and game.winner in totals:
                totals[game.winner] += 1.0
    return totals


def standings(entrants: Sequence[Entrant], rounds: Sequence[Sequence[Game]]) -> list[Standing]:
    seeded = seed(entrants)
    totals = scores(seeded, rounds)
    buchholz = dict.fromkeys(seeded, 0.0)
    sb = dict.fromkeys(seeded, 0.0)
    wins = dict.fromkeys(seeded, 0)
    for games in rounds:
        for game in games:
            if game.a not in totals or (game.b is not None and game.b not in totals):
                continue  # against someone not in these standings (withdrawn)
            if game.winner is not None:
                wins[game.winner] += 1
            if game.is_bye:
                continue
            for me, them in ((game.a, game.b), (game.b, game.a)):
                buchholz[me] += totals[them]
                if game.winner == me:
                    sb[me] += totals[them]
    rows = [
        Standing(i, totals[i], buchholz[i], sb[i], wins[i], position + 1)
        for position, i in enumerate(seeded)
    ]
    rows.sort(key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, -s.wins, s.seed))
    return rows


def pair_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[Game]],
    total_rounds: int,
) -> list[Game]:
    """The next round's boards (winner None) from the rounds played so far."""
    if len(entrants) < 2:
        raise SwissError("a Swiss needs at least two entrants")
    round_number = len(rounds) + 1
    if round_number > total_rounds:
        raise SwissError("every round has been paired")
    seeded = seed(entrants)
    rating = {e.id: e.rating for e in entrants}
    totals = scores(seeded, [[]])  # running scores, rebuilt round by round
    colours = {i: [] for i in seeded}
    floats = {i: [] for i in seeded}
    byes = dict.fromkeys(seeded, 0)
    met: set[tuple[int, int]] = set()
    for games in rounds:
        before = dict(totals)
        for game in games:
            if game.a not in totals or (game.b is not None and game.b not in totals):
                continue  # a game of someone withdrawn since: they are paired no more
            if game.is_bye:
                colours[game.a].append("none")
                floats[game.a].append("none")
                byes[game.a] += 1
            else:
                colours[game.a].append("white")
                colours[game.b].append("black")
                met.add((min(game.a, game.b), max(game.a, game.b)))
                for me, them in ((game.a, game.b), (game.b, game.a)):
                    gap = before[me] - before[them]
                    floats[me].append("down" if gap > 0 else "up" if gap < 0 else "none")
            if game.winner is not None:
                totals[game.winner] += 1.0
    players = [
        {
            "id": i,
            "name": str(i),
            "score": totals[i],
            "rating": int(rating[i]),
            "starting_number": position + 1,
            "color_hist": colours[i],
            "float_history": floats[i],
            "bye_count": byes[i],
        }
        for position, i in enumerate(seeded)
    ]
    try:
        rows = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=met,
            round_number=round_number,
            total_rounds=total_rounds,
        )
    except Exception as error:  # the library raises its own types for "no pairing"
        raise SwissError(f"no pairing for round {round_number}: {error}") from error
    if sum(1 for row in rows if row.get("bye")) > len(seeded) % 2:
        # The library answers "no pairing without repeats" with forced byes for all.
        raise SwissError(f"no pairing for round {round_number} without a repeat")
    boards = []
    for row in sorted(rows, key=lambda r: r["table"]):
        if row.get("bye"):
            boards.append(Game(row["white_id"], None, row["white_id"]))
        else:
            boards.append(Game(row["white_id"], row["black_id"], None))
    return boards
