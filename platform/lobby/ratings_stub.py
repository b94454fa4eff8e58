"""TEMPORARY: the ratings interface (`ratings.services`) until the ratings app lands it on
main; delete this module then (lobby.rating imports the real one when it exists).

Exactly the agreed interface; every player has the defaults (Glicko-2's new player)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RatingView:
    key: str
    rating: float
    deviation: float
    provisional: bool
    games: int


def rating_key(game: str, mode: str, settings: Mapping[str, Any]) -> str | None:
    if game == "karuta" and settings.get("poem_set") is None:
        key = f"karuta-{settings.get('mode', 'competitive')}"
        return key if key in ("karuta-competitive", "karuta-chirashi") else None
    return game if game in ("bozu", "bakudan") else None


def current(user_id: int, key: str) -> RatingView:
    return RatingView(key, 1500.0, 500.0, True, 0)


def current_many(user_ids: Iterable[int], key: str) -> dict[int, RatingView]:
    return {user_id: current(user_id, key) for user_id in user_ids}
