"""Arena scoring and re-pairing, pure (no Django, no clock, no randomness).

Scoring (lichess's arena rule, without berserk): a win scores 2, a draw 1, a loss 0. Two
wins in a row set a player "on fire": while on fire every result scores double (a win 4,
a draw 2); any result that is not a win (a draw or a loss) puts the fire out. So the 1st
and 2nd wins of a run score 2 each and the 3rd, 4th, ... score 4. A forfeit counts as a
loss for the one who forfeited and a win for the other.

Re-pairing: whoever is waiting when a wave runs is paired by maximum-weight matching
(networkx) over their places in the standings: the weight of a pair falls with the gap
between the two places, so leaders meet leaders. Only pairs within NEIGHBOURS places of
each other are candidates (so the graph stays small with hundreds waiting), and two players
who have just met each other are not paired again at once unless they are the only two
waiting. An odd player out waits for the next wave.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

WIN, DRAW, LOSS = "win", "draw", "loss"
NEIGHBOURS = 12


@dataclass(frozen=True)
class Tally:
    score: int = 0
    run: int = 0  # consecutive wins just played
    games: int = 0
    wins: int = 0

    @property
    def on_fire(self) -> bool:
        return self.run >= 2


def points(tally: Tally, result: str) -> int:
    base = {WIN: 2, DRAW: 1, LOSS: 0}[result]
    return base * 2 if tally.on_fire else base


def record(tally: Tally, result: str) -> Tally:
    """The tally after one more game."""
    if result not in (WIN, DRAW, LOSS):
        raise ValueError(f"unknown result {result!r}")
    return Tally(
        score=tally.score + points(tally, result),
        run=tally.run + 1 if result == WIN else 0,
        games=tally.games + 1,
        wins=tally.wins + (result == WIN),
    )


def tally_of(results: Iterable[str]) -> Tally:
    tally = Tally()
    for result in results:
        tally = record(tally, result)
    return tally


@dataclass(frozen=True)
class Waiting:
    id: Hashable
    place: int  # 1 = leading the standings
    last_opponent: Hashable | None = None


def pair_wave(waiting: Sequence[Waiting]) -> list[tuple[Hashable, Hashable]]:
    """Pairs for everyone waiting (an odd one out is left for the next wave)."""
    if len(waiting) < 2:
        return []
    if len(waiting) == 2:
        return [(waiting[0].id, waiting[1].id)]
    ordered = sorted(waiting, key=lambda w: (w.place, str(w.id)))
    graph = nx.Graph()
    for i, one in enumerate(ordered):
        for j in range(i + 1, min(i + 1 + NEIGHBOURS, len(ordered))):
            other = ordered[j]
            if one.last_opponent == other.id or other.last_opponent == one.id:
                continue
            graph.add_edge(i, j, weight=10_000 - abs(one.place - other.place))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [tuple(sorted(pair)) for pair in matching]
    return [(ordered[i].id, ordered[j].id) for i, j in sorted(pairs)]
