"""Rating updates without Django: glue around two maintained libraries, no maths of our own.

* One against one (karuta competitive): Glicko-2 (`glicko2-py`'s `update_rating`, the
  2012 algorithm as Glickman publishes it) at lichess's parameters (its volatility capped at
  0.1 as lichess does). Each game is a rating
  period of one game, as lichess rates: both players are updated from their ratings before
  the game.
* Three or more seats, and teams: Weng-Lin's Plackett-Luce model (`openskill`), on Glicko's
  scale: a new player is 1500 / 500, and beta (a game's own spread of performance) is chosen
  so that between two settled players a gap of d points weighs as in Glicko-2: Plackett-Luce's
  two-player likelihood is logistic in d / sqrt(2 beta² + both sigmas²), which tends to
  Glicko's d / 173.72 when beta = 173.72 / sqrt 2. tau 5, openskill's default
  ratio to mu, keeps a deviation from shrinking to nothing.

A rating is (rating, deviation, volatility) on the display scale; Weng-Lin keeps no
volatility (0.0). A Glicko-2 deviation also grows while its player is idle (`idle`, lichess's
0.21436 rating periods a day): the stored one is as of the player's last game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from glicko2.math import algorithm as glicko
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi
from openskill.models import PlackettLuce

START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
VOLATILITY_MAX = 0.1  # lichess caps it here: past it a rating may never settle again
TAU = 0.75
DEVIATION_MIN = 45.0
DEVIATION_MAX = 500.0
PROVISIONAL_DEVIATION = 110.0  # shown with "?" while the deviation is at least this
LEADERBOARD_DEVIATION = 75.0  # on a leaderboard only at most this (and active lately)

# lichess's rating periods per day for an idle player: a typical RD of 60 grows to 110 in a
# year without a game. Each game is also a period of its own (glicko2_game).
RATING_PERIODS_PER_DAY = 0.21436
LEADERBOARD_ACTIVE_DAYS = 30  # on a leaderboard only if played in the last 30 days

GLICKO_SCALE = 400 / math.log(10)  # 173.72 rating points per unit of the logistic
WENG_LIN_BETA = GLICKO_SCALE / math.sqrt(2)
WENG_LIN = PlackettLuce(mu=START_RATING, sigma=START_DEVIATION, beta=WENG_LIN_BETA, tau=5.0)


class System(StrEnum):
    GLICKO2 = "glicko2"
    WENG_LIN = "weng-lin"


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


def start(system: System) -> Rating:
    """A new player's rating in a system."""
    return Rating(volatility=START_VOLATILITY if system is System.GLICKO2 else 0.0)


def _clamp(deviation: float) -> float:
    return min(DEVIATION_MAX, max(DEVIATION_MIN, deviation))


def glicko2_period(me: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """A player after one rating period: `games` are (opponent before, score 1 / 0.5 / 0)."""
    for _, score in games:
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {score!r}")
    new = glicko.update_rating(
        rating_to_mu(me.rating),
        rd_to_phi(me.deviation),
        me.volatility,
        [(rating_to_mu(o.rating), rd_to_phi(o.deviation), float(s)) for o, s in games],
        tau=tau,
    )
    return Rating(mu_to_rating(new.mu), _clamp(phi_to_rd(new.phi)), min(new.sigma, VOLATILITY_MAX))


def idle(me: Rating, days: float) -> Rating:
    """A player after `days` without a game: Glicko's step 6 for a player who did not
    compete, over the rating periods that passed (RATING_PERIODS_PER_DAY, fractional): the
    deviation becomes sqrt(phi² + t·sigma²), rating and volatility unchanged. The library's
    update for a period without games adds one sigma²; t periods add t of them, which is its
    update with sigma·sqrt(t). Weng-Lin ratings (no volatility) do not grow here."""
    periods = max(0.0, days) * RATING_PERIODS_PER_DAY
    if periods <= 0 or me.volatility <= 0:
        return me
    grown = glicko.update_rating(
        rating_to_mu(me.rating), rd_to_phi(me.deviation), me.volatility * math.sqrt(periods), []
    )
    return Rating(me.rating, _clamp(phi_to_rd(grown.phi)), me.volatility)


def days_settled(me: Rating, limit: float = LEADERBOARD_DEVIATION) -> float | None:
    """How many idle days until the deviation grows past `limit` (`idle` solved for the
    days): None when it is past it already, inf when it never grows (Weng-Lin)."""
    if me.deviation > limit:
        return None
    if me.volatility <= 0:
        return math.inf
    room = rd_to_phi(limit) ** 2 - rd_to_phi(me.deviation) ** 2
    return room / (me.volatility**2 * RATING_PERIODS_PER_DAY)


def glicko2_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players after one game (a rating period of its own, as lichess rates), each
    from the other's rating before it; `score_a` is 1 (a won), 0.5 (a draw) or 0."""
    return glicko2_period(a, [(b, score_a)]), glicko2_period(b, [(a, 1.0 - score_a)])


def glicko2_expected(a: Rating, b: Rating) -> float:
    """The chance that a beats b before they play: the library's expected score with both
    deviations combined (Glickman's prediction for a game between two rated players)."""
    combined = rd_to_phi(math.hypot(a.deviation, b.deviation))
    return glicko.E(rating_to_mu(a.rating), rating_to_mu(b.rating), combined)


def weng_lin_game(teams: Sequence[Sequence[Rating]], places: Sequence[int]) -> list[list[Rating]]:
    """Every seat after one game of teams (a team of one per seat in a free-for-all);
    `places[i]` is team i's place, 1 best, ties sharing a place."""
    if len(teams) != len(places) or len(teams) < 2:
        raise ValueError("a game has at least two teams, each with its place")
    if any(not team for team in teams):
        raise ValueError("a team has at least one seat")
    rated = WENG_LIN.rate(
        [[WENG_LIN.rating(mu=r.rating, sigma=r.deviation) for r in team] for team in teams],
        ranks=[float(p) for p in places],
    )
    return [[Rating(r.mu, _clamp(r.sigma), 0.0) for r in team] for team in rated]
