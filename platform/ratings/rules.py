"""Which games are rated, toward which rating, and how a finished game's seats become one
rating update. Pure (no Django): the services and the bench call the same functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ratings import pure
from ratings.pure import Rating, System

# Each rating: its key and the system that rates it (RULES: one rating per game and mode;
# karuta competitive at every voiced pace is one rating).
SYSTEMS: dict[str, System] = {
    "karuta-competitive": System.GLICKO2,
    "karuta-chirashi": System.WENG_LIN,
    "karuta-genpei": System.WENG_LIN,
    "bozu": System.WENG_LIN,
    "bakudan": System.WENG_LIN,
}
KEYS = tuple(SYSTEMS)
# Rated games are played by people on their own devices (a friend room, or a room the lobby
# makes): never against the CPU, on one shared device or alone.
RATED_MODES = frozenset({"friend"})


def rating_key(game: str, mode: str, settings: Mapping[str, Any]) -> str | None:
    """The rating a game counts toward, or None (not a rated kind of game)."""
    if mode not in RATED_MODES:
        return None
    if game == "karuta":
        if settings.get("poem_set") is not None:  # a 20-poem practice game
            return None
        key = f"karuta-{settings.get('mode', 'competitive')}"
        return key if key in SYSTEMS else None
    if game in ("bozu", "bakudan"):
        return game
    return None


@dataclass(frozen=True)
class SeatResult:
    user_id: int | None
    is_cpu: bool  # a CPU from the start
    place: int  # 1 best; ties share
    forfeited: bool  # resigned, left, or played by the CPU after the 45 s rule


def unrated_reason(rated: bool, key: str | None, seats: Sequence[SeatResult]) -> str | None:
    """Why a finished game changes no rating, or None: it is rated."""
    if not rated:
        return "not rated"
    if key is None:
        return "not a rated kind of game"
    if len(seats) < 2:
        return "fewer than two seats"
    if any(s.is_cpu or s.user_id is None for s in seats):
        return "a seat was not a signed-in person"
    if len({s.user_id for s in seats}) != len(seats):
        return "one person at two seats"
    return None


def places(seats: Sequence[SeatResult]) -> list[int]:
    """Each seat's place with forfeited seats after all the others: a player who leaves,
    resigns or is played by the CPU loses (ties share a place: 1, 1, 3)."""
    keys = [(s.forfeited, s.place) for s in seats]
    return [1 + sum(other < key for other in keys) for key in keys]


def teams_of(key: str, settings: Mapping[str, Any], count: int) -> list[int]:
    """The team of each seat: genpei's two teams (the first team holds the first seats,
    settings["teams"] giving the sizes, unless settings["seat_teams"] gives each seat's
    team, as the room's creator arranged them), otherwise every seat its own."""
    if key == "karuta-genpei":
        sizes = settings.get("teams")
        if not (isinstance(sizes, list | tuple) and len(sizes) == 2 and sum(sizes) == count):
            raise ValueError(f"genpei needs two team sizes adding up to {count}, not {sizes!r}")
        chosen = settings.get("seat_teams")
        if chosen is not None:
            if not (
                isinstance(chosen, list | tuple)
                and len(chosen) == count
                and [chosen.count(0), chosen.count(1)] == list(sizes)
            ):
                raise ValueError(f"genpei's seat teams {chosen!r} do not fit sizes {sizes!r}")
            return list(chosen)
        return [0 if i < sizes[0] else 1 for i in range(count)]
    return list(range(count))


def update(
    key: str,
    settings: Mapping[str, Any],
    seats: Sequence[SeatResult],
    before: Mapping[int, Rating],
) -> dict[int, Rating]:
    """Every seat's rating after the game (by user id), from `before` (every seat's user)."""
    place = places(seats)
    users = [s.user_id for s in seats]
    if SYSTEMS[key] is System.GLICKO2:
        if len(seats) != 2:
            raise ValueError("Glicko-2 rates games of two")
        score = 1.0 if place[0] < place[1] else 0.0 if place[0] > place[1] else 0.5
        a, b = pure.glicko2_game(before[users[0]], before[users[1]], score)
        return {users[0]: a, users[1]: b}
    team = teams_of(key, settings, len(seats))
    count = max(team) + 1
    members = [[i for i in range(len(seats)) if team[i] == t] for t in range(count)]
    # A team's place is its best member's (teammates share the game's result); a member who
    # forfeited loses all the same: rated from the same game with their team last.
    team_places = [min(place[i] for i in m) for m in members]
    after = pure.weng_lin_game([[before[users[i]] for i in m] for m in members], team_places)
    result = {
        users[i]: r
        for m, rs in zip(members, after, strict=True)
        for i, r in zip(m, rs, strict=True)
    }
    last = len(seats) + 1
    for t, m in enumerate(members):
        quitters = [k for k, i in enumerate(m) if seats[i].forfeited]
        if quitters and len(m) > 1:
            lost = [last if u == t else p for u, p in enumerate(team_places)]
            as_lost = pure.weng_lin_game([[before[users[i]] for i in mm] for mm in members], lost)
            for k in quitters:
                result[users[m[k]]] = as_lost[t][k]
    return result
