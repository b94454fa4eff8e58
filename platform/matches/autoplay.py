"""The server's own moves: `advance` plays the move that is due (a CPU seat, a person away
past the grace, a timed game's deadline), `cpu_move` is the CPU's action, and `sweep` finds
overdue matches. A person's move is `moves.submit_action`; both end in `moves.record_move`.

Server-side moves name the `seq` they were scheduled for and are dropped if the match has
moved on: at most once. No CPU policy runs under the row lock (matches/cpu.py).
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from gamekit import Game, LeavePolicy
from gamekit import events as game_events
from matches import cpu, snapshots, timed
from matches.broadcast import after_commit
from matches.clock import default_level, pick_due, refresh_due
from matches.log import get_game
from matches.models import Action, Match, Seat
from matches.moves import MOVE_FIELDS, MovedOn, plan_ahead, put_out, record_move
from matches.movesql import lock_seq_and_seats, update_match
from matches.presence import expire_leases

log = logging.getLogger(__name__)


def advance(match_id: Any, expected_seq: int | None = None) -> int | None:
    """Play one server-side move that is due (CPU seat or timed-out player).

    Returns the new seq, or None when nothing was due or the match moved on
    since the move was scheduled (`expected_seq`): never twice for one turn.

    Decided and planned outside the lock; played under it only if the match is still at this
    seq. No CPU policy runs under the lock: when the snapshot was behind, or the fresh seats
    have the server play a seat this process did not plan for (a person gone meanwhile), the
    transaction gives the lock back and the move is planned and tried again.
    """
    now = timezone.now()
    snap = snapshots.current(match_id)
    seats = snap.seats  # whose plans to make: the snapshot's, then the locked row's
    for _attempt in range(4):
        ahead = _move_ahead(snap, seats, now)
        try:
            with transaction.atomic():
                return _advance_locked(match_id, expected_seq, snap, ahead, now)
        except MovedOn:  # this process's snapshot is behind: read it again, outside
            snap = snapshots.current(match_id, fresh=True)
            seats = snap.seats
        except _Unplanned as missing:
            seats = missing.seats
    return None  # the match kept changing under us; the next timer or sweep plays it


class _Unplanned(Exception):
    """Under the lock, the server's move needs a CPU plan this process has not made."""

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats


def _advance_locked(
    match_id: Any,
    expected_seq: int | None,
    snap: snapshots.Snapshot,
    ahead: Ahead | None,
    now: datetime,
) -> int | None:
    seq, seats = lock_seq_and_seats(match_id)  # fresh: presence decides who is overdue
    if seq is None or (expected_seq is not None and seq != expected_seq):
        return None
    if seq != snap.match.seq:
        raise MovedOn
    match = copy.copy(snap.match)
    if match.status != Match.Status.PLAYING:
        return None
    game = get_game(match)
    state = snap.state
    picked = pick_due(match, game, state, seats, now)
    if picked is None:
        due_before = match.due_at
        refresh_due(match, game, state, seats, now)
        if match.due_at != due_before:
            match.updated = now
            update_match(match, ["due_at", "updated"])
            # Every process reads the match again (a seat's lease ran out: its server
            # died) and arms its timer for the new due time.
            after_commit(match, reread=True)
        return None
    seat, actor, forced = picked.seat, picked.actor, picked.forced
    if actor == Action.Actor.TIMEOUT and game.on_leave == LeavePolicy.OUT:
        # Away past the grace in a game whose leavers are out: out, not played for.
        put_out(match, game, state, seats, seat.index, "away", now)
        update_match(match, MOVE_FIELDS)
        after_commit(match)
        return match.seq
    before = game.to_act(state)
    picked_now = Pick(match.seq, seat.index, seat.cpu_level, actor, forced)
    if ahead is not None and ahead.pick == picked_now:
        move = ahead.move
    else:  # the fresh seats pick another move than the snapshot's did
        plan = None
        if forced is None:
            plan = cpu.planned(
                game, match, state, seat.index, seat.cpu_level or default_level(game)
            )
            if plan is None:
                raise _Unplanned(seats)
        move = _server_move(match, game, state, seat, forced, plan, now)
    record_move(
        match, game, seats, seat.index, move.action, move.state, move.events, before, actor, now
    )
    return match.seq


def _server_move(
    match: Match,
    game: Game,
    state: Any,
    seat: Seat,
    forced: dict[str, Any] | None,
    plan: dict[str, Any] | None,
    now: datetime,
) -> ServerMove:
    """The server's move for a seat: a deadline the game set (a timed game's judging window)
    or the CPU's plan; stamped and applied (a GameError here is an engine bug)."""
    action = dict(forced) if forced is not None else plan
    action = timed.stamp(game, match, action, now, server=True)
    after, events = game.apply(state, seat.index, action)
    return ServerMove(action, after, game_events.encode(events))


@dataclass(frozen=True)
class ServerMove:
    """A server-side move applied (not yet written): the action as logged, the state after
    it, its events."""

    action: dict[str, Any]
    state: Any
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Pick:
    """Which server-side move is due: the locked path plays a move decided before the lock
    only if it picks the same."""

    seq: int
    seat: int
    level: str
    actor: str
    forced: dict[str, Any] | None  # the action a deadline prescribes (None: the CPU's)


@dataclass(frozen=True)
class Ahead:
    """A server-side move decided before the lock: what was picked, and its outcome."""

    pick: Pick
    move: ServerMove


def _move_ahead(snap: snapshots.Snapshot, seats: list[Seat], now: datetime) -> Ahead | None:
    """The server-side move due now as this process's snapshot (and `seats`) see it, decided
    before the lock, with the CPU's plans for this state and the state after it; or None
    (nothing due, a player put out, an engine error: all left to the locked path)."""
    match = snap.match
    if match.status != Match.Status.PLAYING:
        return None
    game = get_game(match)
    cpu.prepare(game, match, snap.state, seats, default_level(game))
    picked = pick_due(match, game, snap.state, seats, now)
    if picked is None:
        return None
    seat, actor, forced = picked.seat, picked.actor, picked.forced
    if actor == Action.Actor.TIMEOUT and game.on_leave == LeavePolicy.OUT:
        return None
    level = seat.cpu_level or default_level(game)
    try:
        plan = None if forced is not None else cpu_move(game, snap.state, seat.index, level, match)
        move = _server_move(match, game, snap.state, seat, forced, plan, now)
    except Exception:
        return None  # decided again under the lock, where an engine error is reported
    plan_ahead(snap, move.state, seats)
    return Ahead(Pick(match.seq, seat.index, seat.cpu_level, actor, forced), move)


def cpu_move(game: Game, state: Any, index: int, level: str, match: Match) -> dict[str, Any]:
    """The CPU's action for a seat: its policy is handed that seat's view and nothing else
    (no state, no other seat's view). Its randomness comes from the server-side seed, so a
    replay of the log reproduces every CPU move."""
    return cpu.plan(game, match, state, index, level)


def due_matches(older_than: timedelta, limit: int = 200) -> list[tuple[Any, int]]:
    """Playing matches whose server-side move is overdue (for the periodic sweeper)."""
    cutoff = timezone.now() - older_than
    # (Seats whose server died are found by `expire_leases`, which sets their due time.)
    return list(Match.objects.overdue(cutoff).values_list("id", "seq")[:limit])


def sweep(older_than: timedelta) -> int:
    """Expire lapsed leases, then play the server-side moves overdue by `older_than`; each
    match in its own try, so one that raises does not stop the rest. Returns moves played."""
    expire_leases()
    moved = 0
    for match_id, _seq in due_matches(older_than):
        try:
            # Several due moves in a row (e.g. CPU after CPU) are played one by one.
            for _ in range(50):
                if advance(match_id) is None:
                    break
                moved += 1
        except Exception as exc:
            log.error("sweeping a match failed: %s", type(exc).__name__)
    return moved
