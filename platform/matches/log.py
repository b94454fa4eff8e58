"""The match log: lock a match, read its seats, append a line, replay from the seed. The move
path's hand-built SQL is `movesql` (the ORM's query building was most of a move's cost).

The log is the truth: `replay(match)` rebuilds the state from the seed and the log lines.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import gamekit
from gamekit import Game, SeatSpec
from gamekit import events as game_events
from matches.errors import MatchError
from matches.models import Action, Match, Seat

log = logging.getLogger(__name__)


def get_game(match: Match) -> Game:
    return gamekit.registry.get(match.game)


def lock_match(match_id: Any) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("not_found") from None


def seats_of(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).order_by("index"))


def append_row(
    match: Match,
    *,
    kind: str,
    seat: int | None,
    action: Mapping[str, Any],
    events: list[dict[str, Any]],
    actor: str,
    action_id: str | None = None,
) -> Action:
    match.seq += 1
    return Action.objects.create(
        match=match,
        seq=match.seq,
        kind=kind,
        seat=seat,
        action=dict(action),
        events=events,
        actor=actor,
        client_action_id=action_id,
    )


def save_away(seats: Iterable[Seat]) -> None:
    """Save the away time `clock.update_turns` added to these seats."""
    for seat in seats:
        Seat.objects.filter(pk=seat.pk).update(away_ms=seat.away_ms)


@dataclass(frozen=True)
class Step:
    """One log line replayed: its kind ("game", or the room line's type: "start", "out",
    "join" …), the state after it (None before the start) and the engine's events it caused
    (encoded; none for a room line the engine does not see)."""

    row: Action
    kind: str
    state: Any
    events: list[dict[str, Any]]


def replay_steps(match: Match, rows: Iterable[Action] | None = None) -> Iterator[Step]:
    """The log replayed from the seed, line by line: the one replay (records, tests and
    `replay` all walk it). A start builds the state, a game line applies, a player put out
    is removed; other room lines leave it."""
    game = get_game(match)
    state = None
    for row in match.actions.order_by("seq") if rows is None else rows:
        kind = "game" if row.kind == Action.Kind.GAME else row.action.get("type", "")
        events: list[Any] = []
        if kind == "start":
            specs = [SeatSpec(**spec) for spec in row.action["seats"]]
            state = game.new_state(match.settings, specs, match.seed)
        elif kind == "game":
            state, events = game.apply(state, row.seat, row.action)
        elif kind == "out":
            state, events = game.remove_seat(state, row.seat)
        yield Step(row, kind, state, game_events.encode(events))


def replay(match: Match) -> Any:
    """The state reached by replaying the log from the seed (None before the start)."""
    state = None
    for step in replay_steps(match):
        state = step.state
    return state
