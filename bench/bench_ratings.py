#!/usr/bin/env python3
"""Rating figures (issue 38; docs/ratings.md). Simulated players of known strength play
rated games whose results go through the real rating code (ratings.rules.update, the
function ratings.apply calls for a finished match), then two pages are timed on a scratch
database. Prints figures; asserts nothing (tests assert behaviour).

  python bench/bench_ratings.py                       # everything; the pages on SQLite (var/)
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/hyakunin_ratings_bench \\
      python bench/bench_ratings.py --only pages      # the pages on PostgreSQL
  python bench/bench_ratings.py --only sim --write    # also store the figures the site shows
  python bench/bench_ratings.py --only karuta --seed 40 --pairing random   # one population

Who plays:
* karuta competitive: 200 players, 40 at each of the five CPU levels (games.karuta.cpu).
  Each game is played by the karuta simulator (games.karuta.sim.play_many: the CPU model,
  with each player's form drawn per game, under the engine's competitive rules); a
  player's true strength is its level. Each round pairs everyone at random.
* Bozu Mekuri: 200 players who all play alike (the game has no choice), four to a table,
  games by the Bozu simulator (games.bozu.sim.final_counts on shuffled piles), seats random.
* Bakudan: 180 players, 60 of each CPU personality, four to a table, each game played
  out by the engine with the CPU policy (games.bakudan.sim.play_game).
--write stores each CPU level's settled karuta rating and Bozu's spread in
platform/ratings/data/figures.json (the lobby's "a CPU at your strength"; Bozu's page).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

from glicko2.math import algorithm as glicko  # noqa: E402
from glicko2.math.conversions import rating_to_mu, rd_to_phi  # noqa: E402

from games.bakudan import cpu as bakudan_cpu  # noqa: E402
from games.bakudan import sim as bakudan_sim  # noqa: E402
from games.bozu import engine as bozu_engine  # noqa: E402
from games.bozu import sim as bozu_sim  # noqa: E402
from games.bozu.rules import Rules  # noqa: E402
from games.karuta import cpu as karuta_cpu  # noqa: E402
from games.karuta import sim as karuta_sim  # noqa: E402
from ratings import pure, rules  # noqa: E402
from ratings.rules import SeatResult  # noqa: E402

FIGURES = ROOT / "platform" / "ratings" / "data" / "figures.json"


def ranks(values) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank (Spearman's convention)."""
    values = np.asarray(values, dtype=float)
    order = values.argsort(kind="stable")
    out = np.empty(len(values))
    sorted_values = values[order]
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and sorted_values[j + 1] == sorted_values[i]:
            j += 1
        out[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a, b) -> float:
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def seat(user: int, place: int) -> SeatResult:
    return SeatResult(user_id=user, is_cpu=False, place=place, forfeited=False)


# --- karuta ---------------------------------------------------------------------------------


class KarutaPopulation:
    def __init__(self, players: int, seed: int):
        levels = len(karuta_cpu.LEVEL_ORDER)
        self.level = np.repeat(np.arange(levels), players // levels)
        self.ratings = [pure.start(pure.System.GLICKO2) for _ in self.level]
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.rounds = 0
        self.games = 0
        # (round, p(a wins), a's score, a's level, b's level, p with the opponent's RD only,
        # p without RDs)
        self.predictions: list[tuple] = []

    def play(self, pairs: np.ndarray, ratings: list[pure.Rating], levels: np.ndarray):
        """One game per pair (indices into `ratings` / `levels`): the simulator decides it,
        the real rating code rates it. Returns (predicted, score of a, levels) per game."""
        out = karuta_sim.play_many(levels[pairs], seed=self.seed * 100_003 + self.games)
        self.games += len(pairs)
        results = []
        for (a, b), winner in zip(pairs, out.winner, strict=True):
            predicted = pure.glicko2_expected(ratings[a], ratings[b])
            place_a, place_b = {0: (1, 2), 1: (2, 1)}.get(int(winner), (1, 1))
            after = rules.update(
                "karuta-competitive",
                {},
                [seat(a, place_a), seat(b, place_b)],
                {a: ratings[a], b: ratings[b]},
            )
            ratings[a], ratings[b] = after[a], after[b]
            score = {1: 1.0, 2: 0.0}[place_a] if place_a != place_b else 0.5
            others = (opponent_rd_only(ratings[a], ratings[b]), no_rd(ratings[a], ratings[b]))
            results.append((predicted, score, (int(levels[a]), int(levels[b])), others))
        return results

    def round(self, pairing: str) -> None:
        if pairing == "random":
            order = self.rng.permutation(len(self.level))
        else:  # "near": as a lobby pairs, neighbours by rating give or take 100 points
            rating = np.array([r.rating for r in self.ratings])
            order = np.argsort(rating + self.rng.normal(0, 100, len(rating)))
        pairs = order.reshape(-1, 2)
        for predicted, score, (la, lb), others in self.play(pairs, self.ratings, self.level):
            self.predictions.append((self.rounds, predicted, score, la, lb, *others))
        self.rounds += 1


LEVEL_GAMES = 4000  # games per pair of levels for their true win chances


def level_chances(games: int = LEVEL_GAMES) -> np.ndarray:
    """[5, 5] the chance that a player of level i beats one of level j, from the simulator
    itself (`games` per pair, seats alternating; its own seeds): the truth the ratings'
    predictions are judged against once the results' sampling noise is left out."""
    levels = len(karuta_cpu.LEVEL_ORDER)
    chance = np.full((levels, levels), 0.5)
    for a in range(levels):
        for b in range(a + 1, levels):
            seats = np.tile([a, b], (games, 1))
            seats[1::2] = [b, a]
            winner = karuta_sim.play_many(seats, seed=900_000 + a * 10 + b).winner
            a_won = np.where(seats[:, 0] == a, winner == 0, winner == 1).mean()
            chance[a, b], chance[b, a] = a_won, 1 - a_won
    return chance


def logistic_fit(chance: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The ratings of the levels (mean 1500) whose Elo/Glicko logistic curve best fits the
    true chances (maximum likelihood, each pair weighted by how often it was played): the
    best any rating on that curve could predict, known exactly."""
    levels = len(chance)
    rating = np.zeros(levels)
    for _ in range(20_000):
        diff = rating[:, None] - rating[None, :]
        predicted = 1 / (1 + 10 ** (-diff / 400))
        step = (weight * (chance - predicted)).sum(axis=1) / weight.sum() * 400
        rating += step
        if np.abs(step).max() < 1e-4:
            break
    return rating - rating.mean() + 1500


def deciles(predicted: np.ndarray):
    for decile in range(10):
        yield decile, (predicted >= decile / 10) & (predicted < (decile + 1) / 10)


def opponent_rd_only(a: pure.Rating, b: pure.Rating) -> float:
    """The prediction with b's deviation only (as inside a Glicko-2 update): for comparison."""
    return glicko.E(rating_to_mu(a.rating), rating_to_mu(b.rating), rd_to_phi(b.deviation))


def no_rd(a: pure.Rating, b: pure.Rating) -> float:
    """The prediction from the two ratings alone (Elo's): for comparison."""
    return 1 / (1 + 10 ** (-(a.rating - b.rating) / 400))


def worst_against(predicted: np.ndarray, true: np.ndarray) -> float:
    return max(
        abs(true[picked].mean() - predicted[picked].mean()) * 100
        for _, picked in deciles(predicted)
        if picked.any()
    )


def calibration(games: np.ndarray, chance: np.ndarray, games_each: int) -> None:
    """games: rows of (predicted, score, a's level, b's level, opponent's RD only, no RD)."""
    predicted, score = games[:, 0], games[:, 1]
    la, lb = games[:, 2].astype(int), games[:, 3].astype(int)
    true = chance[la, lb]
    print(
        f"  calibration: {len(games)} games after the first {games_each} rounds, "
        "predicted = Glicko-2's expected score with both deviations; 'true' = the simulator's "
        f"own chance for the two levels ({LEVEL_GAMES} games per pair of levels)"
    )
    print("    decile of predicted   games  predicted  observed      true   off by  of which model")
    worst = worst_model = 0.0
    for decile, picked in deciles(predicted):
        if not picked.any():
            print(f"    {decile * 10:>3}-{decile * 10 + 10:<3}%   {0:>12}")
            continue
        mean_p = predicted[picked].mean()
        off = (score[picked].mean() - mean_p) * 100
        model = (true[picked].mean() - mean_p) * 100
        worst, worst_model = max(worst, abs(off)), max(worst_model, abs(model))
        print(
            f"    {decile * 10:>3}-{decile * 10 + 10:<3}%      {picked.sum():>8} "
            f"{mean_p * 100:>9.1f}% {score[picked].mean() * 100:>8.1f}% "
            f"{true[picked].mean() * 100:>8.1f}% {off:>+7.1f} {model:>+9.1f} pts"
        )
    print(f"    largest miss: {worst:.1f} points (goal: within 5)")
    print(
        f"    largest miss against the true chances (the results' sampling noise left out): "
        f"{worst_model:.1f} points; the same games predicted with the opponent's RD only "
        f"{worst_against(games[:, 4], true):.1f}, without RDs "
        f"{worst_against(games[:, 5], true):.1f}"
    )
    # The best a logistic rating could do: the levels' best-fitting ratings, known exactly.
    weight = np.zeros_like(chance)
    np.add.at(weight, (la, lb), 1.0)
    weight = weight + weight.T
    ideal = logistic_fit(chance, weight)
    ideal_p = 1 / (1 + 10 ** (-(ideal[la] - ideal[lb]) / 400))
    floor = worst_against(ideal_p, true)
    print(
        f"    the best logistic rating, known exactly (levels at "
        f"{', '.join(f'{r:.0f}' for r in ideal)}): largest miss against the true chances "
        f"{floor:.1f} points"
    )


def karuta(
    players: int, games_each: int, calibration_games: int, newcomers: int, seed: int, pairing: str
):
    started = time.perf_counter()
    population = KarutaPopulation(players, seed)
    for _ in range(games_each):
        population.round(pairing)
    rating = np.array([r.rating for r in population.ratings])
    rho = spearman(rating, population.level)
    # The best any rating can do when true strength has five tied values: ordered levels.
    ceiling = spearman(population.level + population.rng.random(players) * 0.5, population.level)
    how = {"random": "paired at random", "near": "paired by rating, give or take 100"}[pairing]
    print(f"karuta competitive: {players} players, 40 at each CPU level, {how}")
    print(
        f"  Spearman(rating, level) after {games_each} games each: {rho:.3f} "
        f"(goal >= 0.95; with five tied true strengths the most any rating can reach is "
        f"{ceiling:.3f})"
    )
    deviations = [r.deviation for r in population.ratings]
    print(
        f"  deviation after {games_each} games: median {statistics.median(deviations):.0f}, "
        f"provisional (>= 110) {sum(d >= 110 for d in deviations)} of {players}"
    )
    rounds_needed = -(-calibration_games // (players // 2))
    for _ in range(rounds_needed):
        population.round(pairing)
    calibrated = np.array([g[1:] for g in population.predictions if g[0] >= games_each])
    chances = level_chances()
    calibration(calibrated, chances, games_each)

    level_names = karuta_cpu.LEVEL_ORDER
    settled = {
        name: statistics.fmean(
            r.rating for r, lv in zip(population.ratings, population.level, strict=True) if lv == i
        )
        for i, name in enumerate(level_names)
    }
    total = population.rounds
    print(f"  settled rating of each CPU level (mean of its 40 players after {total} games):")
    for name, value in settled.items():
        print(f"    {name:<8} {value:7.0f}")

    # Newcomers of every level join the settled population (held fixed: their opponents'
    # updates are not kept) and each plays 15 games against players drawn at random.
    per_level = newcomers // len(level_names)
    new_level = np.repeat(np.arange(len(level_names)), per_level)
    distances = []
    rng = np.random.default_rng(seed + 1)
    new_ratings = [pure.start(pure.System.GLICKO2) for _ in new_level]
    for _ in range(15):
        opponents = rng.integers(0, players, len(new_level))
        both = population.ratings + new_ratings
        levels = np.concatenate([population.level, new_level])
        pairs = np.stack([players + np.arange(len(new_level)), opponents], axis=1)
        population.play(pairs, both, levels)
        new_ratings = both[players:]
    for r, lv in zip(new_ratings, new_level, strict=True):
        distances.append(abs(r.rating - settled[level_names[lv]]))
    print(
        f"  {len(new_level)} newcomers ({per_level} per level), 15 games each against the "
        f"settled players: median distance from their level's settled rating "
        f"{statistics.median(distances):.0f} (goal <= 150; 90th percentile "
        f"{np.percentile(distances, 90):.0f})"
    )
    print(f"  ({population.games} simulated games, {time.perf_counter() - started:.1f} s)")
    return {
        "spearman": rho,
        "settled": {k: round(v) for k, v in settled.items()},
        "games_each": total,
    }


# --- Bozu ----------------------------------------------------------------------------------


def bozu(players: int, games_each: int, seed: int, table: int = 4):
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    game_rules = Rules(players=table)
    ratings = [pure.start(pure.System.WENG_LIN) for _ in range(players)]
    snapshots = {}
    for game in range(games_each):
        order = rng.permutation(players).reshape(-1, table)  # seats at random
        piles = np.argsort(rng.random((len(order), 100)), axis=1) + 1
        hands = bozu_sim.final_counts(game_rules, piles).hands
        for seats_at, cards in zip(order, hands, strict=True):
            places = bozu_engine.places_for([int(c) for c in cards])
            before = {int(u): ratings[u] for u in seats_at}
            after = rules.update(
                "bozu", {}, [seat(int(u), p) for u, p in zip(seats_at, places, strict=True)], before
            )
            for u, r in after.items():
                ratings[u] = r
        if game + 1 in (30, games_each):
            snapshots[game + 1] = list(ratings)
    print(f"Bozu Mekuri: {players} players who all play alike, {table} to a table")
    out = {}
    for games, snapshot in snapshots.items():
        values = np.array([r.rating for r in snapshot])
        sigmas = np.array([r.deviation for r in snapshot])
        p10, p90 = np.percentile(values, [10, 90])
        print(
            f"  after {games} games each: ratings {values.min():.0f}..{values.max():.0f}, "
            f"middle 80% {p10:.0f}..{p90:.0f}, standard deviation {values.std():.0f}; "
            f"median deviation {np.median(sigmas):.0f}, settled (<= 75) "
            f"{int((sigmas <= 75).sum())} of {players}"
        )
        out = {
            "players": players,
            "games": games,
            "p10": round(p10),
            "p90": round(p90),
            "sd": round(values.std()),
        }
    print(f"  ({time.perf_counter() - started:.1f} s)")
    return out


# --- Bakudan -------------------------------------------------------------------------------


def bakudan(per_personality: int, games_each: int, seed: int, table: int = 4):
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    personalities = bakudan_cpu.PERSONALITIES
    kind = np.repeat(np.arange(len(personalities)), per_personality)
    players = len(kind)
    ratings = [pure.start(pure.System.WENG_LIN) for _ in range(players)]
    for game in range(games_each):
        order = rng.permutation(players)
        order = order[: len(order) - len(order) % table].reshape(-1, table)
        for n, seats_at in enumerate(order):
            levels = tuple(personalities[kind[u]] for u in seats_at)
            state = bakudan_sim.play_game(levels, seed * 1_000_003 + game * 1000 + n)
            before = {int(u): ratings[u] for u in seats_at}
            after = rules.update(
                "bakudan",
                {},
                [seat(int(u), int(p)) for u, p in zip(seats_at, state.places, strict=True)],
                before,
            )
            for u, r in after.items():
                ratings[u] = r
    print(
        f"\nBakudan: {players} players, {per_personality} of each CPU personality, "
        f"{table} to a table"
    )
    settled = {}
    for i, name in enumerate(personalities):
        values = [r.rating for r, k in zip(ratings, kind, strict=True) if k == i]
        settled[name] = round(statistics.fmean(values))
        print(
            f"  {name:<9} mean {statistics.fmean(values):6.0f}, "
            f"spread (sd) {statistics.pstdev(values):4.0f}, after about {games_each} games each"
        )
    print(f"  ({time.perf_counter() - started:.1f} s)")
    return settled


# --- pages ---------------------------------------------------------------------------------


def scratch_database() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    else:
        path = ROOT / "var" / "bench-ratings.sqlite3"
        path.unlink(missing_ok=True)


def timed(call, repeat: int) -> tuple[float, float, float]:
    """(median wall ms, slowest wall ms, median ms of this process's CPU): on a busy machine
    the wall time counts waiting for a core, and the CPU time leaves out the database's."""
    call()  # warm: templates, translations, the first query's connection
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) * 1000, max(walls) * 1000, statistics.median(cpus) * 1000


def pages(board_players: int, profile_games: int, repeat: int, reuse: bool) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import django_env

    if not reuse:
        scratch_database()
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # django.test.Client's host
    django_env.setup("config.settings_test", "bench-ratings.sqlite3")

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import NoReverseMatch, reverse
    from django.utils import timezone

    from ratings import services
    from ratings.models import Rating, RatingChange

    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    started = time.perf_counter()
    built = Rating.objects.count() == board_players and RatingChange.objects.exists()
    if not (reuse and built):
        build(board_players, profile_games)
    profile_user = user_model.objects.get(pk=RatingChange.objects.values("user_id")[:1])
    qualified = services._eligible("karuta-competitive", timezone.now()).count()
    print(
        f"\npages ({connection.vendor}): {board_players} rated players ({qualified} on the "
        f"leaderboard), one with {profile_games} rated games; "
        + ("reused" if reuse and built else f"built in {time.perf_counter() - started:.1f} s")
    )
    client = Client()
    client.force_login(profile_user)
    board_url = reverse("ratings:board", args=["karuta-competitive"])

    def board():
        response = client.get(board_url)
        assert response.status_code == 200 and b"player" in response.content

    median, worst, cpu = timed(board, repeat)
    print(
        f"  leaderboard {board_url} (signed in, own place asked): server time median "
        f"{median:.1f} ms, slowest {worst:.1f} ms of {repeat}, CPU {cpu:.1f} ms (goal <= 50 ms)"
    )
    from django.apps import apps

    profile_url = None
    if apps.is_installed("players"):  # the profile page is the players app's
        from players import handles
        from players.models import Profile

        Profile.objects.get_or_create(
            user=profile_user,
            defaults={"handle_key": handles.handle_key(profile_user.get_username())},
        )
        try:
            profile_url = reverse("profile", args=[profile_user.get_username()])
        except NoReverseMatch:
            profile_url = None
    if profile_url:
        shown = {}

        def profile():
            response = client.get(profile_url)
            assert response.status_code == 200
            shown["chart"] = b"<svg" in response.content

        median, worst, cpu = timed(profile, repeat)
        print(
            f"  profile page {profile_url}: server time median {median:.1f} ms, slowest "
            f"{worst:.1f} ms of {repeat}, CPU {cpu:.1f} ms (goal <= 100 ms); it "
            + ("shows" if shown["chart"] else "does NOT yet show")
            + " the ratings section"
        )
    else:
        print("  no profile page on this branch: timing the ratings part it is to show")

    def section():
        html = services.profile_section(profile_user)
        assert "<svg" in html

    median, worst, cpu = timed(section, repeat)
    print(
        f"  ratings.services.profile_section ({profile_games} games): median {median:.1f} ms, "
        f"slowest {worst:.1f} ms of {repeat}, CPU {cpu:.1f} ms"
    )
    load = os.getloadavg()[0]
    print(f"  (load average {load:.1f} on {os.cpu_count()} cores when this finished)")


def build(board_players: int, profile_games: int) -> None:
    """The scratch data, by bulk inserts: rated players, and one of them with a long history."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from ratings.models import Rating, RatingChange

    user_model = get_user_model()
    now = timezone.now()
    rng = np.random.default_rng(7)
    user_model.objects.bulk_create(
        (user_model(username=f"player{i:06d}", password="!") for i in range(board_players)),
        batch_size=5000,
    )
    ids = list(user_model.objects.order_by("pk").values_list("pk", flat=True))
    ratings = rng.normal(1500, 300, board_players)
    deviations = rng.uniform(45, 150, board_players)
    idle_days = rng.uniform(0, 60, board_players)
    rows = [
        Rating(
            user_id=u, key="karuta-competitive", rating=float(r), deviation=float(d),
            volatility=0.09, games=100, last_played=now - timedelta(days=float(a)),
        )
        for u, r, d, a in zip(ids, ratings, deviations, idle_days, strict=True)
    ]  # fmt: skip
    for row in rows:
        row.settle()  # as ratings.apply does: until when it is on the leaderboard
    Rating.objects.bulk_create(rows, batch_size=5000)
    profile_user = user_model.objects.get(pk=ids[board_players // 2])
    walk = 1500 + np.cumsum(rng.normal(0, 10, profile_games))
    RatingChange.objects.bulk_create(
        (
            RatingChange(
                user_id=profile_user.pk, key="karuta-competitive", match_id=_uuid(i),
                played_at=now - timedelta(minutes=10 * (profile_games - i)),
                rating_before=float(walk[i - 1] if i else 1500), rating=float(walk[i]),
                deviation=50.0, place=1 + i % 2, seats=2,
            )
            for i in range(profile_games)
        ),
        batch_size=5000,
    )  # fmt: skip
    Rating.objects.filter(user=profile_user).update(games=profile_games, rating=float(walk[-1]))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _uuid(i: int):
    import uuid

    return uuid.UUID(int=i + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("sim", "karuta", "pages"))
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=30, help="karuta games each before Spearman")
    parser.add_argument("--calibration-games", type=int, default=10_000)
    parser.add_argument(
        "--pairing",
        choices=("random", "near", "both"),
        default="both",
        help="karuta: everyone at random each round, or neighbours by rating as a lobby would",
    )
    parser.add_argument("--newcomers", type=int, default=100)
    parser.add_argument("--bozu-games", type=int, default=100)
    parser.add_argument("--bakudan-games", type=int, default=50)
    parser.add_argument("--board-players", type=int, default=100_000)
    parser.add_argument("--profile-games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--reuse", action="store_true", help="pages: time the scratch database already built"
    )
    parser.add_argument("--write", action="store_true", help=f"store {FIGURES.name}")
    args = parser.parse_args()
    if args.only != "pages":
        pairings = ("random", "near") if args.pairing == "both" else (args.pairing,)
        stored = None
        for pairing in pairings:
            k = karuta(
                args.players, args.games, args.calibration_games, args.newcomers, args.seed,
                pairing,
            )  # fmt: skip
            print()
            if stored is None or pairing == "random":
                stored = k  # the CPU levels' ratings: at random every level meets every other
        if args.only == "karuta":
            return
        b = bozu(args.players, args.bozu_games, args.seed)
        bakudan_settled = bakudan(60, args.bakudan_games, args.seed)
        if args.write:
            data = {
                "command": "python bench/bench_ratings.py --only sim --write",
                "seed": args.seed,
                "karuta_cpu_levels": stored["settled"],
                "karuta_games_each": stored["games_each"],
                "bozu": b,
                "bakudan_personalities": bakudan_settled,
            }
            FIGURES.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            print(f"\nwrote {FIGURES.relative_to(ROOT)}")
    if args.only != "sim":
        pages(args.board_players, args.profile_games, args.repeat, args.reuse)


if __name__ == "__main__":
    main()
