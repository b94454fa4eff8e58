"""The lobby's one door to ratings (ratings.services, the agreed interface, and the figures
the ratings bench stored)."""

from __future__ import annotations

from ratings import figures
from ratings.services import RatingView, cpu_ratings, current, current_many, rating_key

__all__ = ["RatingView", "cpu_settled", "current", "current_many", "rating_key"]


def cpu_settled(game: str) -> dict[str, float]:
    """Each CPU level's settled rating where the ratings bench measured one that sets the
    levels apart (level key -> rating), else {}: karuta's five levels (random pairing,
    130 games each) and Bakudan's three personalities (about 50 games each, a spread of
    130-150 within each). Bozu's CPU has no choices to make, so its levels play alike."""
    if game == "karuta":
        return dict(cpu_ratings())
    if game == "bakudan":
        return {k: float(v) for k, v in figures.stored().get("bakudan_personalities", {}).items()}
    return {}
