"""What the other apps ask of the ratings (docs/ratings.md): the lobby, events and the
players' profiles. Imports matches and auth only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.safestring import SafeString

from ratings import figures, pure, rules
from ratings.models import Rating, RatingChange

KEYS = rules.KEYS
LEADERBOARD_SIZE = 100
ACTIVE_DAYS = pure.LEADERBOARD_ACTIVE_DAYS  # a leaderboard's players played in the last 30 days


def rating_key(game: str, mode: str, settings: dict) -> str | None:
    """Which rating a game counts toward (None: not a rated kind of game)."""
    return rules.rating_key(game, mode, settings)


@dataclass(frozen=True)
class RatingView:
    key: str
    rating: float
    deviation: float
    provisional: bool
    games: int


def _check(key: str) -> None:
    if key not in rules.SYSTEMS:
        raise ValueError(f"unknown rating key {key!r}")


def _default(key: str) -> RatingView:
    start = pure.start(rules.SYSTEMS[key])
    return RatingView(key, start.rating, start.deviation, start.provisional, 0)


def _view(row: Rating, now=None) -> RatingView:
    """As of now: the deviation shown is the stored one grown over the idle days."""
    deviation = row.live(now or timezone.now()).deviation
    return RatingView(
        row.key, row.rating, deviation, deviation >= pure.PROVISIONAL_DEVIATION, row.games
    )


def current(user_id: int, key: str) -> RatingView:
    """A player's rating for `key`; the starting one if they have played no rated game."""
    _check(key)
    row = Rating.objects.filter(user_id=user_id, key=key).first()
    return _default(key) if row is None else _view(row)


def current_many(user_ids: Iterable[int], key: str) -> dict[int, RatingView]:
    """Every listed player's rating for `key`, in one query."""
    _check(key)
    ids = list(user_ids)
    now = timezone.now()
    found = {r.user_id: _view(r, now) for r in Rating.objects.filter(key=key, user_id__in=ids)}
    return {u: found.get(u) or _default(key) for u in ids}


def all_of(user_id: int) -> list[RatingView]:
    """A player's ratings for every key they have played, in the order of KEYS."""
    now = timezone.now()
    rows = {r.key: _view(r, now) for r in Rating.objects.filter(user_id=user_id)}
    return [rows[k] for k in KEYS if k in rows]


@dataclass(frozen=True)
class BoardRow:
    place: int
    user_id: int
    handle: str
    rating: float
    deviation: float
    games: int


@dataclass(frozen=True)
class Board:
    key: str
    rows: list[BoardRow]
    viewer: BoardRow | None  # the viewer's own place (None: not on this leaderboard)
    viewer_rating: RatingView | None  # the viewer's rating, on the board or not


def _eligible(key: str, now):
    """Played in the last ACTIVE_DAYS and settled (deviation, grown while idle, at most
    LEADERBOARD_DEVIATION): both folded into Rating.board_until when the rating changed."""
    return Rating.objects.filter(key=key, board_until__gte=now)


def _qualifies(row: Rating, now) -> bool:
    """The same test as _eligible, on a row already read."""
    return row.board_until is not None and row.board_until >= now


def leaderboard(key: str, viewer_id: int | None = None) -> Board:
    """The top LEADERBOARD_SIZE of a rating (deviation at most 75, played in the last 30
    days), and the viewer's own place among all who qualify."""
    _check(key)
    now = timezone.now()
    eligible = _eligible(key, now)
    top = eligible.order_by("-rating", "user_id").values_list(
        "user_id", "user__username", "rating", "deviation", "volatility", "last_played", "games"
    )[:LEADERBOARD_SIZE]
    rows = [
        BoardRow(i + 1, user_id, handle, rating, _live(rating, dev, vol, last, now), games)
        for i, (user_id, handle, rating, dev, vol, last, games) in enumerate(top)
    ]
    viewer = viewer_rating = None
    if viewer_id is not None:
        # Not .first(): its ORDER BY id made PostgreSQL walk the primary key (29 ms of a
        # 100,000-row table) instead of the (user, key) unique index.
        found = Rating.objects.filter(user_id=viewer_id, key=key).select_related("user")[:1]
        mine = next(iter(found), None)
        if mine is not None:
            viewer_rating = _view(mine, now)
            if _qualifies(mine, now):
                above = eligible.filter(rating__gt=mine.rating).count()
                viewer = BoardRow(
                    above + 1, viewer_id, mine.user.get_username(), mine.rating,
                    viewer_rating.deviation, mine.games,
                )  # fmt: skip
    return Board(key, rows, viewer, viewer_rating)


def _live(rating: float, deviation: float, volatility: float, last_played, now) -> float:
    row = Rating(rating=rating, deviation=deviation, volatility=volatility, last_played=last_played)
    return row.live(now).deviation


def history(user_id: int, key: str) -> list[tuple[Any, float]]:
    """(played_at, rating after) for each rated game of a player, oldest first."""
    _check(key)
    return list(
        RatingChange.objects.filter(user_id=user_id, key=key)
        .order_by("played_at", "id")
        .values_list("played_at", "rating")
    )


def profile_section(user: Any) -> SafeString:
    """The ratings part of a player's profile page, as HTML: each rating with "?" while
    provisional, its games, and its history as an SVG chart drawn on the server."""
    from ratings.profile import render_section

    return render_section(user)


def cpu_ratings() -> dict[str, float]:
    """Karuta competitive: each CPU level's settled rating, measured by bench_ratings.py
    (the lobby's "a CPU at your strength")."""
    return figures.cpu_ratings()


def forget(user_id: int) -> dict[str, int]:
    """Delete every rating row that names the player (account deletion); rows per table."""
    changes, _ = RatingChange.objects.filter(user_id=user_id).delete()
    ratings, _ = Rating.objects.filter(user_id=user_id).delete()
    return {"ratings.Rating": ratings, "ratings.RatingChange": changes}


def export(user_id: int) -> dict[str, Any]:
    """Everything the ratings keep about a player, for their data export (JSON-ready)."""
    ratings = Rating.objects.filter(user_id=user_id).order_by("key")
    changes = RatingChange.objects.filter(user_id=user_id).order_by("played_at", "id")
    return {
        "ratings": [
            {
                "key": r.key,
                "rating": r.rating,
                "deviation": r.deviation,
                "volatility": r.volatility,
                "games": r.games,
                "last_played": r.last_played.isoformat() if r.last_played else None,
            }
            for r in ratings
        ],
        "history": [
            {
                "key": c.key,
                "played_at": c.played_at.isoformat(),
                "rating_before": c.rating_before,
                "rating": c.rating,
                "deviation": c.deviation,
                "place": c.place,
                "seats": c.seats,
            }
            for c in changes
        ],
    }
