"""The lobby's one door to ratings (ratings.services, the agreed interface)."""

from __future__ import annotations

from ratings.services import RatingView, current, current_many, rating_key

__all__ = ["RatingView", "current", "current_many", "rating_key"]
