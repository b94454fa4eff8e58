"""The lobby's one door to ratings: `ratings.services` once it is on main, else the stub
of the same interface (lobby/ratings_stub.py)."""

from __future__ import annotations

try:
    from ratings import services as ratings
except ImportError:  # the ratings app has not landed its services yet
    from lobby import ratings_stub as ratings

RatingView = ratings.RatingView
rating_key = ratings.rating_key
current = ratings.current
current_many = ratings.current_many
