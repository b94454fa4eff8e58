"""The vectorised ladder simulator plays the same model as the engine-driven path."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from games.karuta import sim, simulate
from poems.kimariji import dynamic_kimariji, static_kimariji

ENGINE_GAMES = 120  # the engine path plays about 70 games a second
SIM_GAMES = 3000
SEED = 11


def test_shared_beginnings_give_the_engine_kimariji_for_any_unread_set():
    tab = sim.tables()
    rng = random.Random(4)
    for _ in range(300):
        poem = rng.randrange(1, 101)
        read = set(rng.sample(range(1, 101), rng.randrange(0, 99))) - {poem}
        unread = np.array([n not in read and n != poem for n in range(1, 101)])
        rival = np.where(unread, tab.shared[poem - 1], 0).max()
        assert min(rival + 1, tab.length[poem - 1]) == dynamic_kimariji(poem, read)
    assert [int(k) for k in tab.static] == [static_kimariji(n) for n in range(1, 101)]


def test_a_simulated_game_follows_the_rules_of_a_whole_game():
    out = sim.play_many(np.array([[4, 0], [0, 4], [2, 2]] * 50), seed=3)
    assert set(out.winner.tolist()) <= {0, 1}
    readings = out.readings[:, 0]
    assert (readings == out.readings[:, 1]).all()
    assert readings.min() >= 25 and readings.max() <= 100  # someone must take 25 cards


PAIRS = (("tsuyoi", "futsu"), ("futsu", "yowai"), ("yowai", "nyumon"))


@pytest.fixture(scope="module")
def both_paths():
    """The three match-ups on both paths. Game lengths are compared on these same games
    (per match-up), not on further games of their own: the engine path is the cost here."""
    engine_ladder = simulate.Ladder(levels=("x",), games=ENGINE_GAMES)
    sim_ladder = simulate.Ladder(levels=("x",), games=SIM_GAMES)
    for i, (a, b) in enumerate(PAIRS):
        simulate.match_up(a, b, ENGINE_GAMES, SEED + i, ladder=engine_ladder)
        sim.match_up(a, b, SIM_GAMES, SEED + i, ladder=sim_ladder)
    return engine_ladder, sim_ladder


def _z(p1, n1, p2, n2):
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    sd = math.sqrt(max(pooled * (1 - pooled), 1e-4) * (1 / n1 + 1 / n2))
    return abs(p1 - p2) / sd


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_win_rates_agree_within_sampling_error(both_paths, a, b):
    engine_ladder, sim_ladder = both_paths
    p1, p2 = engine_ladder.win_rate(a, b), sim_ladder.win_rate(a, b)
    assert _z(p1, ENGINE_GAMES, p2, SIM_GAMES) < 3.5, (p1, p2)


@pytest.mark.parametrize("level", ["nyumon", "yowai", "futsu", "tsuyoi"])
def test_touch_times_and_otetsuki_agree_within_sampling_error(both_paths, level):
    engine_ladder, sim_ladder = both_paths
    # A game's touches share the CPU's form for that game: games are the sampling unit.
    e, s = engine_ladder.game_means[level], sim_ladder.game_means[level]
    se = math.sqrt(np.var(e) / len(e) + np.var(s) / len(s))
    assert abs(np.mean(e) - np.mean(s)) < 4 * se, (np.mean(e), np.mean(s))
    n1, n2 = engine_ladder.readings[level], sim_ladder.readings[level]
    r1, r2 = engine_ladder.otetsuki[level] / n1, sim_ladder.otetsuki[level] / n2
    assert _z(r1, n1, r2, n2) < 4, (r1, r2)


def test_the_novice_waits_for_the_end_of_the_upper_verse_on_both_paths(both_paths):
    engine_ladder, sim_ladder = both_paths
    for ladder in (engine_ladder, sim_ladder):
        assert ladder.figures("nyumon")["after_verse"]["below_zero"] <= 0.10


@pytest.mark.parametrize("pair", PAIRS)
def test_game_lengths_agree_within_sampling_error(both_paths, pair):
    engine_ladder, sim_ladder = both_paths
    e, s = np.array(engine_ladder.lengths[pair]), np.array(sim_ladder.lengths[pair])
    assert len(e) == ENGINE_GAMES and len(s) == SIM_GAMES
    se = math.sqrt(e.var() / len(e) + s.var() / len(s))
    assert abs(e.mean() - s.mean()) < 4 * se, (e.mean(), s.mean())
