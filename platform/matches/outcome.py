"""A finished match as the apps built on the match layer see it (ratings, the lobby,
events): who sat where, their places, scores and whether they forfeited. Rebuilt from the
database by `outcome_of`, so a receiver that missed `match_finished` can catch up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q

from gamekit import Outcome
from matches.models import Action, Match

# Log lines by which a player gives up their seat: resigned, left (the CPU plays on), or out
# (left, resigned or away past the grace in a game whose leavers are out).
FORFEIT_LINES = ("resign", "leave", "out")


@dataclass(frozen=True)
class SeatOutcome:
    index: int
    user_id: int | None  # the signed-in person who held the seat (None: a guest or a CPU)
    is_cpu: bool  # the CPU's from the start (a seat the CPU took over is a person's)
    place: int  # 1 = best; ties share a place; forfeited seats come after the rest
    score: int | None  # the game's score, if it keeps one
    forfeited: bool  # resigned, left, or played by the CPU after the 45 s rule


@dataclass(frozen=True)
class MatchOutcome:
    match_id: Any  # the match's UUID
    game: str
    mode: str
    settings: Mapping[str, Any]
    rated: bool
    finished_at: datetime
    seats: tuple[SeatOutcome, ...]


def outcome_of(match_id: Any) -> MatchOutcome | None:
    """The outcome of a finished match, from the database (None: no such finished match)."""
    try:
        match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    except (ValueError, TypeError, ValidationError):  # not a match id at all
        return None
    if match is None:
        return None
    seats = list(match.seats.order_by("index"))
    forfeited, cpu_from_start = _from_log(match)
    game_places = Outcome.from_json(match.outcome or {})
    places = ranked(
        [_place(game_places.places, s.index, len(seats)) for s in seats],
        [s.index in forfeited for s in seats],
    )
    scores = game_places.scores
    return MatchOutcome(
        match_id=match.pk,
        game=match.game,
        mode=match.mode,
        settings=dict(match.settings),
        rated=match.rated,
        finished_at=match.finished_at or match.updated,
        seats=tuple(
            SeatOutcome(
                index=s.index,
                user_id=s.user_id,
                is_cpu=cpu_from_start.get(s.index, s.is_cpu and s.user_id is None),
                place=places[s.index],
                score=None if scores is None or s.index >= len(scores) else int(scores[s.index]),
                forfeited=s.index in forfeited,
            )
            for s in seats
        ),
    )


def _place(places: tuple[int, ...], index: int, count: int) -> int:
    """The game's place for a seat; a game that ranks nobody (no places) ties everyone."""
    if len(places) != count:
        return 1
    place = places[index]
    return place if isinstance(place, int) else count


def ranked(places: list[int], forfeited: list[bool]) -> list[int]:
    """Places with forfeited seats after everyone else (among themselves, by the game's
    order); ties share a place, and the next place counts them (1, 1, 3)."""
    keys = list(zip(forfeited, places, strict=True))
    return [1 + sum(other < key for other in keys) for key in keys]


def _from_log(match: Match) -> tuple[set[int], dict[int, bool]]:
    """(the seats that forfeited, each seat's "CPU from the start"), from the log: the
    start line names the CPU seats; forfeits are room lines and the CPU's moves for an
    absent person (actor TIMEOUT)."""
    forfeited: set[int] = set()
    cpu_from_start: dict[int, bool] = {}
    rows = Action.objects.filter(match=match).filter(
        Q(kind=Action.Kind.ROOM) | Q(actor=Action.Actor.TIMEOUT)
    )
    for seat, kind, actor, action in rows.values_list("seat", "kind", "actor", "action"):
        kind_of = (action or {}).get("type")
        if kind == Action.Kind.ROOM and kind_of == "start":
            for spec in action.get("seats", []):
                cpu_from_start[spec["index"]] = bool(spec.get("is_cpu"))
        elif seat is not None and (actor == Action.Actor.TIMEOUT or kind_of in FORFEIT_LINES):
            forfeited.add(seat)
    return forfeited, cpu_from_start
