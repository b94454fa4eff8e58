"""Turn clocks, presence and due times: pure arithmetic over a match, its seats and the
game's state (no database, no clock of its own: `now` is handed in, and no CPU policy: a
timed game's due times read plans already made, `timed.due`). Its settings too.

Where is the 45 s rule? `takeover_at`: an absent human's turn is due once the grace, minus
the away time of their earlier turns, has passed since max(their turn began, they went
away); in a timed game (karuta), whose readings come and go, 45 s after they went away. In a
rated turn-based game a present human's turn is due `idle_turn_ms` after it began too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import gamekit
from gamekit import Game
from matches import timed
from matches.conf import conf
from matches.epoch import epoch_ms, moment
from matches.models import Action, Match, Seat


def cpu_delay(game: Game) -> timedelta:
    ms = conf("CPU_DELAY_MS", None)
    return timedelta(milliseconds=game.cpu_delay_ms if ms is None else ms)


def disconnect_grace_ms() -> int:
    return int(conf("DISCONNECT_GRACE_S", 45) * 1000)


def idle_turn_ms() -> int:
    """How long a present person's turn may wait in a rated turn-based game before the CPU
    plays it ("never moving" counts as abandoning, as the 45 s rule does: docs/lobby.md)."""
    return int(conf("IDLE_TURN_S", 45) * 1000)


# A server that dies just after renewing its leases has its seats expired by another's sweep
# at most STALE + HEARTBEAT seconds later (its seats then count as gone since that renewal):
# 10 s, inside the issue-40 promise that a dead server's players are played for within the
# grace + 5 s, for a grace of 5 s or more. Four missed renewals in a row expire a lease.
PRESENCE_STALE_S = 8
PRESENCE_HEARTBEAT_S = 2


def presence_stale() -> timedelta:
    """How long a seat's lease lasts: a server renews the leases of the seats it has sockets
    for every `heartbeat_interval()`; one that stops (it died) lets them run out."""
    return timedelta(seconds=conf("PRESENCE_STALE_S", PRESENCE_STALE_S))


def heartbeat_interval() -> float:
    return float(conf("PRESENCE_HEARTBEAT_S", PRESENCE_HEARTBEAT_S))


def default_level(game: Game) -> str:
    return game.cpu_levels[0].key if game.cpu_levels else ""


def absent_since(match: Match, seat: Seat, now: datetime) -> datetime | None:
    """When a human seat's holder went away (None while connected)."""
    if seat.is_cpu:
        return None
    if seat.connections <= 0:
        return seat.disconnected_since or match.created
    if seat.last_seen and seat.last_seen < now - presence_stale():
        return seat.last_seen  # a server died without closing the socket
    return None


def turn_since(match: Match, index: int) -> datetime | None:
    """When it became this seat's turn (None when it is not its turn)."""
    ms = (match.turns or {}).get(str(index))
    return None if ms is None else moment(ms)


def seat_due(
    match: Match, game: Game, seat: Seat, now: datetime, state: Any = None
) -> datetime | None:
    """When the server should play this seat's turn by itself, if ever."""
    return _due(match, game, seat, now, state).when


def takeover_at(
    match: Match, game: Game, seat: Seat, now: datetime, since: datetime | None = None
) -> datetime | None:
    """When the server starts to play for an absent person (None while they are here, but
    for a rated turn-based game's idle turn, or, in a turn-based game, while it is not their
    turn: `since`, when it began, is needed).
    A turn-based game counts their own turns' time; a timed game's readings come and go
    (a seat leaves to_act between them, and at every send), so it counts from the drop:
    the rule then means what it says, 45 s after they went away, whatever the readings do."""
    gone = absent_since(match, seat, now)
    if gone is None and not match.rated:
        return None  # the common case (every seat a frame shows asks): decided first
    timed_game = gamekit.timed(game) is not None
    if gone is None:
        # Present but never moving: in a rated turn-based game the turn is played after
        # idle_turn_ms (a timed game's own deadlines end every phase instead).
        since = since or turn_since(match, seat.index)
        if timed_game or since is None:
            return None
        return since + timedelta(milliseconds=idle_turn_ms())
    if timed_game:
        return gone + timedelta(milliseconds=disconnect_grace_ms())
    since = since or turn_since(match, seat.index)
    if since is None:
        return None
    remaining = max(0, disconnect_grace_ms() - seat.away_ms)
    return max(since, gone) + timedelta(milliseconds=remaining)


def _base_due(match: Match, game: Game, seat: Seat, now: datetime) -> datetime | None:
    since = turn_since(match, seat.index) or now
    # Pacing counts from the last move, so a CPU's second draw in a row is paced too.
    last_move = moment(match.turns["last"]) if "last" in (match.turns or {}) else since
    paced = max(since, last_move) + cpu_delay(game)
    if seat.is_cpu:
        return paced
    takeover = takeover_at(match, game, seat, now, since)
    return None if takeover is None else max(takeover, paced)


def _due(match: Match, game: Game, seat: Seat, now: datetime, state: Any) -> timed.ServerDue:
    """When the server acts for the seat and the action it then plays (None for the CPU's
    move). A timed game's CPU plays when the game says and any seat may have a deadline
    (`timed.due`)."""
    base = _base_due(match, game, seat, now)
    level = seat.cpu_level or default_level(game)
    return timed.due(match, game, state, seat.index, base, level, seat.is_cpu, now)


@dataclass(frozen=True, slots=True)
class Picked:
    """The server-side move due now: the seat, who plays it (the log's actor) and the action
    a deadline prescribes (None: the CPU's move)."""

    seat: Seat
    actor: str
    forced: dict[str, Any] | None


def pick_due(
    match: Match, game: Game, state: Any, seats: list[Seat], now: datetime
) -> Picked | None:
    """The server-side move due now for the seat due earliest, or None."""
    to_act = set(game.to_act(state))
    best: tuple[datetime, Picked] | None = None
    for seat in seats:
        if seat.index not in to_act:
            continue
        due = _due(match, game, seat, now, state)
        if due.when is not None and due.when <= now and (best is None or due.when < best[0]):
            if due.action is not None:
                actor = Action.Actor.SYSTEM
            else:
                actor = Action.Actor.CPU if seat.is_cpu else Action.Actor.TIMEOUT
            best = (due.when, Picked(seat, actor, due.action))
    return None if best is None else best[1]


def update_turns(
    match: Match, game: Game, state: Any, seats: list[Seat], before: Iterable[int], now: datetime
) -> list[Seat]:
    """Start and stop the seats' turn clocks (kept on the match row, saved with it) and set
    `match.due_at`. Returns the seats whose away time grew (an absent seat's turn ended):
    the caller saves them (`log.save_away`)."""
    grew = []
    before = set(before)
    after = set(game.to_act(state)) if match.status == Match.Status.PLAYING else set()
    turns = dict(match.turns or {})
    for seat in seats:
        key = str(seat.index)
        if seat.index in before and seat.index not in after:
            since = turn_since(match, seat.index)
            gone = absent_since(match, seat, now)
            if gone is not None and since is not None:
                span = now - max(since, gone)
                seat.away_ms += max(0, int(span.total_seconds() * 1000))
                grew.append(seat)
            turns.pop(key, None)
        elif seat.index in after and key not in turns:
            turns[key] = epoch_ms(now)
    turns["last"] = epoch_ms(now)
    match.turns = turns
    dues = [seat_due(match, game, s, now, state) for s in seats if s.index in after]
    dues = [d for d in dues if d is not None]
    match.due_at = min(dues) if dues else None
    return grew


def refresh_due(match: Match, game: Game, state: Any, seats: list[Seat], now: datetime) -> None:
    """Recompute `due_at` after a presence change (no new log row)."""
    if match.status != Match.Status.PLAYING or state is None:
        match.due_at = None
        return
    to_act = set(game.to_act(state))
    dues = [seat_due(match, game, s, now, state) for s in seats if s.index in to_act]
    dues = [d for d in dues if d is not None]
    match.due_at = min(dues) if dues else None
