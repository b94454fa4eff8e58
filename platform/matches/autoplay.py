"""The server's own moves: `advance` plays the move that is due (a CPU seat, a person away
past the grace, a timed game's deadline), `cpu_move` is the CPU's action, and `sweep` finds
overdue matches. A person's move is `moves.submit_action`; both end in `moves.record_move`,
written through the same fence (`moves.fenced`).

Server-side moves name the `seq` they were scheduled for and are dropped if the match has
moved on: at most once. No CPU policy runs inside a write's transaction (matches/cpu.py).
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
from matches.moves import MOVE_FIELDS, FenceLost, fenced, plan_ahead, put_out, record_move
from matches.movesql import read_seats, update_match
from matches.presence import expire_leases

log = logging.getLogger(__name__)


def advance(match_id: Any, expected_seq: int | None = None) -> int | None:
    """Play one server-side move that is due (a CPU seat, a person away past the grace, a
    timed game's deadline), or store the due time again when nothing is due.

    Returns the new seq, or None when nothing was due or the match moved on since the move
    was scheduled (`expected_seq`): never twice for one turn. Decided on the state in memory
    (read again if it is behind `expected_seq`; always, for the sweeper, which names none),
    with the seats read fresh (presence decides who is overdue), planned outside any
    transaction, and written through the fence (moves.fenced): if another writer committed
    that seq first nothing is written, and the next timer or sweep plays the move on the
    new state. No row lock, no retry. matches/owner.py calls it in the match's queue
    (`submit_due`); the sweeper and the Celery task call it directly.
    """
    snap = snapshots.current(match_id)
    if expected_seq is None or snap.match.seq < expected_seq:
        snap = snapshots.current(match_id, fresh=True)  # this process's copy is behind
    if expected_seq is not None and snap.match.seq != expected_seq:
        return None  # moved on: this timer's move was played, or another is due now
    if snap.match.status != Match.Status.PLAYING:
        return None
    now = timezone.now()
    seats = read_seats(match_id)  # fresh: presence decides who is overdue
    game = get_game(snap.match)
    cpu.prepare(game, snap.match, snap.state, seats, default_level(game))  # a CPU's due time
    picked = pick_due(snap.match, game, snap.state, seats, now)
    if picked is None:
        _store_due(snap, game, seats, now)
        return None
    seat, actor, forced = picked.seat, picked.actor, picked.forced
    before = game.to_act(snap.state)
    if actor == Action.Actor.TIMEOUT and game.on_leave == LeavePolicy.OUT:
        # Away past the grace in a game whose leavers are out: out, not played for.
        def write() -> int:
            match = copy.copy(snap.match)
            put_out(match, game, snap.state, seats, seat.index, "away", now)
            update_match(match, MOVE_FIELDS)
            after_commit(match)
            return match.seq
    else:
        level = seat.cpu_level or default_level(game)
        plan = (
            None
            if forced is not None
            else cpu_move(game, snap.state, seat.index, level, snap.match)
        )
        move = _server_move(snap.match, game, snap.state, seat, forced, plan, now)
        plan_ahead(snap, move.state, seats)  # the next CPU's plans, before the write

        def write() -> int:
            match = copy.copy(snap.match)
            record_move(
                match, game, seats, seat.index, move.action, move.state, move.events, before,
                actor, now,
            )  # fmt: skip
            return match.seq

    try:
        return fenced(write)
    except FenceLost:
        snapshots.forget(match_id)  # another writer moved it: the next frame reads it again
        return None


def _store_due(snap: snapshots.Snapshot, game: Game, seats: list[Seat], now: datetime) -> None:
    """Nothing is due now: store the due time the fresh seats give (a seat's lease ran out:
    its server died), if the match is still at the snapshot's seq."""
    match = copy.copy(snap.match)
    refresh_due(match, game, snap.state, seats, now)
    if match.due_at == snap.match.due_at:
        return
    with transaction.atomic():
        at_seq = Match.objects.filter(pk=match.pk, seq=match.seq)
        if at_seq.update(due_at=match.due_at, updated=now):
            match.updated = now
            # Every process reads the match again and arms its timer for the new due time.
            after_commit(match, reread=True)


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


# Several due moves in a row (e.g. CPU after CPU) are played one by one, at most this many.
SWEEP_MOVES = 50


def overdue(older_than: timedelta) -> list[tuple[Any, int]]:
    """Expire lapsed leases, then the matches whose server-side move is overdue by
    `older_than`, with their seq (a process's sweep: driver.py plays them in their queue)."""
    expire_leases()
    return due_matches(older_than)


def sweep(older_than: timedelta) -> int:
    """Expire lapsed leases, then play the server-side moves overdue by `older_than` (Celery
    beat's sweep, outside any process's queue: the fence keeps it to one writer per seq);
    each match in its own try, so one that raises does not stop the rest. Returns moves
    played."""
    moved = 0
    for match_id, _seq in overdue(older_than):
        try:
            for _ in range(SWEEP_MOVES):
                if advance(match_id) is None:
                    break
                moved += 1
        except Exception as exc:
            log.error("sweeping a match failed: %s", type(exc).__name__)
    return moved
