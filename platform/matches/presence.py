"""Presence: sockets opening and closing, and the leases that make it expire by itself.

A process renews the leases of the seats it has sockets for (`renew_leases`, every
MATCHES_PRESENCE_HEARTBEAT_S, from `driver.LocalDriver`); a seat whose lease ran out (its
server died) counts as gone from its last renewal (`expire_leases`, in every sweep).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from matches import presencesql, snapshots
from matches.broadcast import after_commit
from matches.clock import presence_stale, refresh_due
from matches.log import get_game, lock_match, seats_of
from matches.models import Match, Seat
from matches.movesql import update_match

log = logging.getLogger(__name__)


def presence(match_id: Any, seat_indices: Iterable[int], delta: int) -> int | None:
    """A socket holding these seats opened (+1) or closed (-1). Returns the match's seq.

    Under the match's row lock, as every room change: it orders this against them (a seat
    handed to the CPU, a start, a player put out change the seats or the state the due time
    is computed from) and against another process's socket of the same match (each computes
    the due time from the seats as the other left them). A move takes no lock, but its
    UPDATE of the match row waits for this one to commit. The seq does not move."""
    indices = sorted(set(seat_indices))
    if not indices:
        return None
    now = timezone.now()
    with transaction.atomic():
        match, seats = presencesql.lock_and_move(match_id, indices, delta, now)
        # Under the lock the seq cannot move: this process's snapshot at it holds its state
        # (loaded once, when it was made); else the snapshot is read, state and recent rows.
        base = snapshots.peek(match.pk)
        if base is None or base.match.seq != match.seq:  # the first socket after a change
            rows = presencesql.recent_rows(match, snapshots.KEEP_ROWS)
            base = snapshots.read(match, seats, rows)
        due_before = match.due_at
        refresh_due(match, get_game(match), base.state, seats, now)
        # The row is written when the due time moved, and always in a waiting room: its
        # `updated` keeps it from the abandoned rooms' purge (records/retention.py). A
        # running match's moves and a finished one's log line are what count for the rest.
        if match.due_at != due_before or match.status == Match.Status.WAITING:
            match.updated = now
            update_match(match, ("due_at", "updated"))
        after_commit(match, presence=(seats, base))
        return match.seq


def heartbeat(match_id: Any, seat_indices: Iterable[int]) -> None:
    renew_leases({match_id: seat_indices})


def renew_leases(held: Mapping[Any, Iterable[int]]) -> None:
    """This process still has sockets for these seats ({match: seat indices}): renew their
    leases, and re-assert them if a sweep expired them while this process was busy.

    One statement for every match whose sockets here hold the same seats (nearly always all
    of them, or one): `match IN (...) AND index IN (...)`, not a condition per match, which
    Django compiled for 38 ms of CPU a beat at 200 matches (SQLite, bench_move_cost.py)."""
    now = timezone.now()
    by_seats: dict[tuple[int, ...], list[Any]] = {}
    for match_id, indices in held.items():
        if indices := tuple(sorted(set(indices))):
            by_seats.setdefault(indices, []).append(match_id)
    for indices, match_ids in by_seats.items():
        for start in range(0, len(match_ids), 500):  # under SQLite's 999 parameters
            Seat.objects.filter(
                match_id__in=match_ids[start : start + 500],
                index__in=indices,
                kind=Seat.Kind.HUMAN,
            ).exclude(token_hash="").update(
                last_seen=now, connections=Greatest(F("connections"), 1), disconnected_since=None
            )


def expire_leases(limit: int = 200) -> int:
    """Seats whose lease ran out (the server holding their sockets died without closing
    them): they count as gone from their last renewal, so the 45 s rule runs from there.
    Returns how many seats were expired."""
    stale = timezone.now() - presence_stale()
    ghosts = Seat.objects.filter(
        kind=Seat.Kind.HUMAN,
        connections__gt=0,
        last_seen__lt=stale,
        match__status__in=(Match.Status.PLAYING, Match.Status.WAITING),
    )
    expired = 0
    for match_id in set(ghosts.values_list("match_id", flat=True)[:limit]):
        try:
            expired += _expire_match_leases(match_id)
        except Exception as exc:  # one bad match must not stop the others
            log.error("could not expire a match's leases: %s", type(exc).__name__)
    return expired


def _expire_match_leases(match_id: Any) -> int:
    with transaction.atomic():
        match = lock_match(match_id)
        seats = seats_of(match)
        now = timezone.now()
        expired = 0
        for seat in seats:
            lapsed = seat.last_seen is not None and seat.last_seen < now - presence_stale()
            if not seat.is_cpu and seat.connections > 0 and lapsed:
                seat.connections = 0
                seat.disconnected_since = seat.last_seen
                seat.save(update_fields=["connections", "disconnected_since"])
                expired += 1
        if expired:
            _refresh_due(match, seats, now)
            match.save(update_fields=["due_at", "updated"])
            after_commit(match, reread=True)
        return expired


def _refresh_due(match: Match, seats: list[Seat], now: Any) -> None:
    game = get_game(match)
    state = game.load_state(match.state) if match.state is not None else None
    refresh_due(match, game, state, seats, now)
