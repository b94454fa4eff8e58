"""Moves: where a person's move is decided (`submit_action`, `_decide`) and where every move
is recorded (`record_move`). The server's own moves (`advance`, `cpu_move`, `sweep`) are in
autoplay.py; matches/owner.py is the queue that hands both to this process's database
thread, one match's moves in order.

The rules every function here keeps:
- A move is decided on the state in memory (the process snapshot) and written with no row
  lock: its log row at the snapshot's seq + 1, the fence (`fenced`: the log's unique
  `(match, seq)` refuses a seq another writer committed first).
- A change appends a row to the log, bumps `Match.seq` and stores the state snapshot in
  the same transaction; only after the commit is the group told (broadcast.after_commit).
- No CPU policy runs inside the write's transaction: the plans for the seats the server
  plays next are made before it (`plan_ahead`, matches/cpu.py).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

import gamekit
from gamekit import Game, GameError
from gamekit import events as game_events
from matches import cpu, protocol, signals, snapshots, timed
from matches.broadcast import after_commit
from matches.clock import default_level, update_turns
from matches.errors import MatchError
from matches.latency import Link
from matches.log import append_row, get_game, save_away
from matches.models import Action, Match, Seat
from matches.movesql import append_and_update, read_seats, update_match
from matches.tokens import still_held

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Applied:
    seq: int
    duplicate: bool = False  # a retried action id: applied before, not again


@dataclass(frozen=True)
class Decided:
    """A person's action checked and applied to a snapshot, not yet written."""

    seat: int
    action: dict[str, Any]  # as the game keeps it (cleaned, stamped)
    state: Any  # the state after it
    events: list[dict[str, Any]]
    before: tuple[int, ...]  # who was to act before it


def choose_seat(held: list[int], seat: int | None, to_act: Iterable[int]) -> int:
    if not held:
        raise MatchError("spectator")
    if seat is None:
        if len(held) == 1:
            return held[0]
        mine = [s for s in held if s in set(to_act)]
        if len(mine) != 1:
            raise MatchError("choose_seat")
        return mine[0]
    if seat not in held:
        raise MatchError("not_your_seat")
    return seat


def submit_action(
    match_id: Any,
    held: Iterable[int],
    action: Mapping[str, Any],
    *,
    seat: int | None = None,
    action_id: str | None = None,
    expected_seq: int | None = None,
    arrived_ms: float | None = None,
    link: Link | None = None,
) -> Applied:
    """Apply one person's action, or refuse it with a MatchError/GameError (nothing changes).

    Decided on the match's state in memory (this process's snapshot) and written with no row
    lock, the log row at the in-memory seq + 1 in the transaction that stores the new state:
    the log's unique `(match, seq)` is the fence. If another writer (another process, a
    Celery worker, a room change) wrote that seq first, the INSERT loses, the transaction
    rolls back, the match is read again and the act decided again on it (matches/owner.py
    hands every socket's act here, in the match's one queue: a single writer never loses).
    A refusal decided on memory is confirmed on a fresh read before it is sent.

    A timed game's action is stamped with its arrival (`arrived_ms`, the server's epoch ms
    on receipt), its decision and the connection's one-way delay and jitter (`link`):
    timed.stamp.
    A refusal the game marks `logged` is recorded in the log as a room line, through the
    same fence.
    """
    held = list(held)
    action = protocol.check_action(action)  # bounded before any game sees it
    snap, reloaded = snapshots.current(match_id), False
    for _ in range(RELOADS + 1):
        now = timezone.now()
        try:
            decision = _decide(
                snap, held, action, seat, action_id, expected_seq, now, arrived_ms, link
            )
        except (MatchError, GameError) as exc:
            if not reloaded:
                snap, reloaded = snapshots.current(match_id, fresh=True), True
                continue
            earlier = _logged(match_id, held, action_id)
            if earlier is not None:
                return earlier
            if getattr(exc, "logged", False):
                try:
                    fenced(partial(_write_refusal, snap, exc))
                except FenceLost:  # another writer moved first: decide again on its state
                    snap = snapshots.current(match_id, fresh=True)
                    continue
            raise
        if isinstance(decision, Applied):
            return decision
        # The seats are read fresh (one query, no lock): who is here sets the turn clocks,
        # the away time and the due time this write stores (clock.update_turns); memory's
        # copy of presence goes stale (every process renews `last_seen` in the database).
        seats = read_seats(match_id)
        try:
            if decision.seat not in still_held(seats, [decision.seat]):
                raise FenceLost  # the seat was handed to the CPU meanwhile: decide again
            plan_ahead(snap, decision.state, seats)  # the CPU's next plans, before the write
            return Applied(_write_act(snap, decision, seats, action_id, now))
        except FenceLost:
            earlier = _logged(match_id, held, action_id)  # or the same id, written before
            if earlier is not None:
                return earlier
            snap, reloaded = snapshots.current(match_id, fresh=True), True
    raise MatchError("stale")  # other writers kept committing first; the client gets the view


# A lost fence means another writer committed this seq: reload and decide again. A single
# writer never loses; two (a Redis outage, a room change beside a move) rarely lose twice.
RELOADS = 3


class FenceLost(Exception):
    """Another writer committed the seq this move was to be written at."""


def fenced(write: Callable[[], int]) -> int:
    """Run `write` in one transaction; a unique-constraint loss on the log is the fence."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError as exc:
        raise FenceLost from exc


def _write_act(
    snap: snapshots.Snapshot,
    decision: Decided,
    seats: list[Seat],
    action_id: str | None,
    now: datetime,
) -> int:
    """Write a decided act; raises FenceLost (nothing written) if its seq is taken.

    Inside a group's transaction (groupcommit.py) an act that does not end the match needs
    no savepoint of its own: its first write is the fence (`record_move`), which refuses
    without an error and writes nothing, and nothing is written or queued for the commit
    before it. What could fail after it is the database's (the whole group fails then, as
    it would anyway) or a bug, which fails the group too rather than commit half an act.
    Alone, on PostgreSQL, it is one autocommitted statement unless it saves away time too
    (`record_move`). Ending the match (its announcement is queued before the write), it
    has its own transaction or savepoint (`fenced`)."""
    match = copy.copy(snap.match)
    game = get_game(match)

    def write() -> int:
        record_move(
            match, game, seats, decision.seat, decision.action, decision.state,
            decision.events, decision.before, Action.Actor.HUMAN, now, action_id,
        )  # fmt: skip
        return match.seq

    if game.outcome(decision.state) is not None:
        return fenced(write)
    if not connection.in_atomic_block:
        return write()  # alone: record_move's one statement, or its own transaction
    try:
        return write()
    except (FenceLost, DatabaseError):
        raise
    except Exception as exc:  # after the fence's write, with no savepoint to undo it
        raise DatabaseError("a move failed after its write; the group is rolled back") from exc


def plan_ahead(snap: snapshots.Snapshot, state: Any, seats: list[Seat]) -> None:
    """Plan for the CPU seats to act after this move (at the next seq), so that neither the
    due times computed in the write (a timed game's CPU plays at its plan's time) nor the
    CPU's own move runs a policy inside a write's transaction."""
    game = get_game(snap.match)
    upcoming = copy.copy(snap.match)
    upcoming.seq += 1
    cpu.prepare(game, upcoming, state, seats, default_level(game))


def _decide(
    snap: snapshots.Snapshot,
    held: list[int],
    action: Mapping[str, Any],
    seat: int | None,
    action_id: str | None,
    expected_seq: int | None,
    now: datetime | None = None,
    arrived_ms: float | None = None,
    link: Link | None = None,
) -> Applied | Decided:
    """Check an action against a snapshot: a duplicate's Applied, or the action Decided;
    raises MatchError/GameError."""
    match = snap.match
    if action_id is not None:
        for row in snap.rows:
            if row.client_action_id == action_id:
                return _duplicate(row, held)
    if match.status == Match.Status.WAITING:
        raise MatchError("not_started")
    if match.status == Match.Status.FINISHED:
        raise MatchError("finished")
    if not held:
        raise MatchError("spectator")
    held = still_held(snap.seats, held)
    if not held:
        raise MatchError("spectator")
    if expected_seq is not None and expected_seq != match.seq:
        raise MatchError("stale")
    game = get_game(match)
    before = tuple(game.to_act(snap.state))
    index = choose_seat(held, seat, before)
    if index not in before:
        raise gamekit.NotYourTurnError("not your turn")
    action = game.clean_action(action)  # only the keys the game declares are kept and logged
    action = timed.stamp(game, match, action, now or timezone.now(), arrived_ms, link)
    try:
        state, events = game.apply(snap.state, index, action)
        events = game_events.encode(events)
    except GameError as exc:
        exc.seat = index  # for the log line of a refusal the game marks `logged`
        raise
    except Exception as exc:
        # An engine that trips over odd input refused it; log the kind, not the content.
        log.warning("engine %s raised %s on an action", game.slug, type(exc).__name__)
        raise gamekit.InvalidActionError("engine refused the action") from None
    return Decided(index, action, state, events, before)


def _duplicate(row: Action, held: list[int]) -> Applied:
    if row.seat not in held:
        raise MatchError("duplicate_action_id")
    return Applied(row.seq, duplicate=True)


def _write_refusal(snap: snapshots.Snapshot, exc: Exception) -> int:
    """A room line saying the game refused a seat's action, and why (its code and reason:
    nothing personal, and nothing the seat did not know already), written at the fresh
    snapshot's seq + 1 (the fence, as a move). `quiet` (the error's): no notice, so no frame
    to every socket; the others get the line with their next frame."""
    quiet = getattr(exc, "quiet", False)
    event = {"type": "refused", "seat": getattr(exc, "seat", None), "code": exc.code}
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        event["reason"] = reason
    match = copy.copy(snap.match)
    append_row(
        match,
        kind="room",
        seat=event["seat"],
        action={"type": "refused", "quiet": True} if quiet else {"type": "refused"},
        events=[event],
        actor=Action.Actor.HUMAN,
    )
    update_match(match, ["seq"])
    after_commit(match, quiet=quiet)
    return match.seq


def _logged(match_id: Any, held: list[int], action_id: str | None) -> Applied | None:
    """A retried action id found in the log (older than the snapshot's rows), or None."""
    if action_id is None:
        return None
    row = Action.objects.filter(match_id=match_id, client_action_id=action_id).first()
    return None if row is None else _duplicate(row, held)


MOVE_FIELDS = ("seq", "state", "status", "outcome", "finished_at", "turns", "due_at", "updated")


def record_move(
    match: Match,
    game: Game,
    seats: list[Seat],
    index: int,
    action: Mapping[str, Any],
    state: Any,
    events: list[dict[str, Any]],
    before: Iterable[int],
    actor: str,
    now: datetime,
    action_id: str | None = None,
) -> None:
    """Inside the write's transaction, `match` at its seq: log the move at seq + 1 (the fence:
    FenceLost, nothing written, if that seq or the action id is taken) and save the state.
    The fence's statement is the first write (`_write_act` relies on it).

    `match` is this call's own copy (the process snapshot is never changed in place).
    """
    match.seq += 1
    row = Action(
        match_id=match.pk,
        seq=match.seq,
        kind=Action.Kind.GAME,
        seat=index,
        action=dict(action),
        events=events,
        actor=actor,
        client_action_id=action_id,
        created=now,
    )
    finish_if_over(match, game, state, now)
    timed.begin_state(match, game, now)  # a timed game's new state begins now
    grew = update_turns(match, game, state, seats, before, now)
    match.state = game.dump_state(state)
    match.updated = now
    with _transaction_if_needed(bool(grew)):
        if not append_and_update(match, MOVE_FIELDS, row):
            raise FenceLost
        save_away(grew)
    after_commit(match, remember=(seats, state, [row]))


def _transaction_if_needed(more_writes: bool) -> Any:
    """A transaction for the move's writes unless one is open already or the move is one
    statement (PostgreSQL's `append_and_update` with no away time to save): a statement
    alone is atomic, and its commit is one round trip less."""
    if connection.in_atomic_block or (connection.vendor == "postgresql" and not more_writes):
        return nullcontext()
    return transaction.atomic()


def finish_if_over(match: Match, game: Game, state: Any, now: datetime) -> None:
    """The game's own end: its outcome kept, the match finished (and announced after the
    commit: signals.finish)."""
    outcome = game.outcome(state)
    if outcome is not None:
        match.outcome = outcome.to_json()
        signals.finish(match, now)


def put_out(
    match: Match, game: Game, state: Any, seats: list[Seat], index: int, reason: str, now: datetime
) -> None:
    """`LeavePolicy.OUT`: the player in seat `index` is out of the game (they left, resigned
    or were away past the grace). The game's own events follow the room's in the log row;
    `replay` runs `remove_seat` for it. The seat keeps its token: the player may watch."""
    before = game.to_act(state)
    state, events = game.remove_seat(state, index)
    append_row(
        match,
        kind="room",
        seat=index,
        action={"type": "out", "reason": reason},
        events=[{"type": "out", "seat": index, "reason": reason}, *game_events.encode(events)],
        actor=Action.Actor.TIMEOUT if reason == "away" else Action.Actor.HUMAN,
    )
    finish_if_over(match, game, state, now)
    save_away(update_turns(match, game, state, seats, before, now))
    match.state = game.dump_state(state)
    match.updated = now
