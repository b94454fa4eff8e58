#!/usr/bin/env python3
"""The checks behind docs/ratings.md's 'calibration goal is not met' (issue 38): what the
karuta calibration miss is not (the rating period, sampling noise alone) and what it is
measured against (the best logistic rating; an ideal ranking after 30 games). Prints figures;
asserts nothing. Uses bench_ratings.py's population and the site's rating code.

  python bench/bench_ratings_checks.py periods --seeds 38,39,40,41,42   # RD added per game
  python bench/bench_ratings_checks.py floor                             # noise, Spearman
  python bench/bench_ratings_checks.py rescale --seeds 38,39,40,41,42    # a fitted factor
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent)]
import bench_ratings as bench  # noqa: E402
from glicko2.math import algorithm as glicko  # noqa: E402
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi  # noqa: E402

from ratings import pure  # noqa: E402


def period_with(fraction: float):
    """Glicko-2's period for one game (the library's steps 3-5) with `fraction` of the
    volatility's square added to the RD in step 6 (1: the site's, one period per game)."""

    def period(me, games, tau=pure.TAU):
        mu, phi = rating_to_mu(me.rating), rd_to_phi(me.deviation)
        opponents = [(rating_to_mu(o.rating), rd_to_phi(o.deviation), s) for o, s in games]
        v, delta = glicko._compute_intermediates(mu, opponents)
        sigma = glicko._illinois(me.volatility, phi, v, delta, tau)
        phi_star = math.sqrt(phi**2 + fraction * sigma**2)
        phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
        mu_new = mu + phi_new**2 * delta / v
        deviation = pure._clamp(phi_to_rd(phi_new))
        return pure.Rating(mu_to_rating(mu_new), deviation, min(sigma, pure.VOLATILITY_MAX))

    return period


def run(seed: int, rounds: int, pairing: str = "random") -> bench.KarutaPopulation:
    population = bench.KarutaPopulation(200, seed)
    for _ in range(rounds):
        population.round(pairing)
    return population


def periods(seeds: list[int], chance: np.ndarray) -> None:
    site = pure.glicko2_period
    print("RD added before each game (fraction of sigma^2): median RD, spread inside a level,")
    print("largest calibration miss against the true chances (games 31-130), per seed")
    for fraction in (1.0, 0.25, 0.05, 0.0):
        pure.glicko2_period = period_with(fraction)
        try:
            for seed in seeds:
                population = run(seed, 130)
                games = np.array([g[1:] for g in population.predictions if g[0] >= 30])
                true = chance[games[:, 2].astype(int), games[:, 3].astype(int)]
                rating = np.array([r.rating for r in population.ratings])
                spread = np.mean([rating[population.level == lv].std() for lv in range(5)])
                rd = np.median([r.deviation for r in population.ratings])
                miss = bench.worst_against(games[:, 0], true)
                print(f"  {fraction:4.2f} seed {seed}: RD {rd:3.0f}, spread {spread:3.0f}, "
                      f"miss {miss:.1f}")  # fmt: skip
        finally:
            pure.glicko2_period = site


def floor(chance: np.ndarray, draws: int) -> None:
    rng = np.random.default_rng(0)
    level = np.repeat(np.arange(5), 40)
    weight = np.full((5, 5), 1.0)
    ideal = bench.logistic_fit(chance, weight)
    worst = []
    for _ in range(draws):
        a = rng.integers(0, 200, 10_000)
        b = (a + rng.integers(1, 200, 10_000)) % 200
        la, lb = level[a], level[b]
        predicted = 1 / (1 + 10 ** (-(ideal[la] - ideal[lb]) / 400))
        won = (rng.random(10_000) < chance[la, lb]).astype(float)
        worst.append(bench.worst_against(predicted, won))
    worst = np.array(worst)
    print(
        f"best logistic ratings known exactly ({', '.join(f'{r:.0f}' for r in ideal)}), "
        f"{draws} samples of 10,000 games paired at random: largest decile miss median "
        f"{np.median(worst):.1f}, 90th percentile {np.percentile(worst, 90):.1f}; "
        f"within 5 points in {(worst <= 5).mean():.0%}"
    )
    rhos = []
    for _ in range(draws // 5):
        opponents = np.array([rng.choice(np.delete(np.arange(200), i), 30) for i in range(200)])
        theirs = level[opponents]
        won = rng.random(theirs.shape) < chance[level[:, None], theirs]
        loglik = np.stack(
            [np.where(won, np.log(np.clip(chance[h, theirs], 1e-9, 1)),
                      np.log(np.clip(1 - chance[h, theirs], 1e-9, 1))).sum(axis=1)
             for h in range(5)],
            axis=1,
        )  # fmt: skip
        posterior = np.exp(loglik - loglik.max(axis=1, keepdims=True))
        posterior /= posterior.sum(axis=1, keepdims=True)
        rhos.append(bench.spearman(posterior @ ideal, level))
    rhos = np.array(rhos)
    print(
        f"Spearman after 30 random games of an estimator told the five levels and every "
        f"opponent's level ({len(rhos)} draws): median {np.median(rhos):.3f}, 5-95% "
        f"{np.percentile(rhos, 5):.3f}-{np.percentile(rhos, 95):.3f}"
    )


def rescale(seeds: list[int], chance: np.ndarray) -> None:
    print("prediction's logit times a factor fitted on games 31-80, judged on games 81-180:")
    for seed in seeds:
        population = run(seed, 180)
        games = np.array([g for g in population.predictions if g[0] >= 30])
        fit, judged = games[games[:, 0] < 80], games[games[:, 0] >= 80]
        logit = np.log(fit[:, 1] / (1 - fit[:, 1]))
        factors = np.linspace(0.5, 1.3, 801)
        loglik = [
            np.sum(fit[:, 2] * np.log(q) + (1 - fit[:, 2]) * np.log(1 - q))
            for q in (1 / (1 + np.exp(-f * logit)) for f in factors)
        ]
        factor = factors[int(np.argmax(loglik))]
        p = judged[:, 1]
        scaled = 1 / (1 + np.exp(-factor * np.log(p / (1 - p))))
        true = chance[judged[:, 3].astype(int), judged[:, 4].astype(int)]
        score = judged[:, 2]
        print(
            f"  seed {seed}: factor {factor:.3f}; largest miss {bench.worst_against(p, score):.1f} "
            f"-> {bench.worst_against(scaled, score):.1f} (against the true chances "
            f"{bench.worst_against(p, true):.1f} -> {bench.worst_against(scaled, true):.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("check", choices=("periods", "floor", "rescale"))
    parser.add_argument("--seeds", default="38,39,40,41,42")
    parser.add_argument("--draws", type=int, default=2000)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    chance = bench.level_chances()
    if args.check == "periods":
        periods(seeds, chance)
    elif args.check == "floor":
        floor(chance, args.draws)
    else:
        rescale(seeds, chance)


if __name__ == "__main__":
    main()
