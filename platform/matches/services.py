"""Everything that changes a match, each in one database transaction.

The rules every function here keeps:
- The match row is locked (`select_for_update`; SQLite serialises writers instead)
  before anything is written, so two requests on one match are applied one after the
  other. Moves are decided on the process snapshot first and confirm its seq under the
  lock (see submit_action).
- A change appends a row to the action log, bumps `Match.seq` and stores the new state
  snapshot in the same transaction. Only after the commit (`transaction.on_commit`) is
  the match's group told "match M is at seq S" (a move's notice also carries its log
  row, for other processes' snapshots); each consumer then builds its own seat's view.
  Nothing in a notice is sent to a client as it is.
- Server-side moves (CPU seats, disconnected players) name the `seq` they were
  scheduled for and are dropped if the match has moved on: at most once.
"""

from __future__ import annotations

import copy
import logging
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.utils import timezone

import gamekit
from gamekit import Game, GameError, LeavePolicy, SeatSpec
from gamekit import events as game_events
from matches import frames, protocol, store
from matches.errors import MatchError
from matches.models import Action, Match, Seat
from matches.tokens import (  # noqa: F401 (token_seats: re-exported for callers)
    hash_token,
    new_token,
    seats_for_token,
    still_held,
    token_seats,
)

log = logging.getLogger(__name__)

# --- configuration ------------------------------------------------------------------


def conf(name: str, default: Any) -> Any:
    return getattr(django_settings, f"MATCHES_{name}", default)


def cpu_delay(game: Game) -> timedelta:
    ms = conf("CPU_DELAY_MS", None)
    return timedelta(milliseconds=game.cpu_delay_ms if ms is None else ms)


def disconnect_grace_ms() -> int:
    return int(conf("DISCONNECT_GRACE_S", 45) * 1000)


def presence_stale() -> timedelta:
    """How long a seat's lease lasts: a server renews the leases of the seats it has sockets
    for every `heartbeat_interval()`; one that stops (it died) lets them run out."""
    return timedelta(seconds=conf("PRESENCE_STALE_S", 15))


def heartbeat_interval() -> float:
    return float(conf("PRESENCE_HEARTBEAT_S", 5))


# --- notices ----------------------------------------------------------------------------


# Inside a consumer's database call, notices are collected here and sent by the
# consumer on the event loop once the call returns (still after the commit), so the
# process's one database thread does not wait on the channel layer.
_deferred: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar(
    "matches_deferred_notices", default=None
)


def notice(
    match_id: Any, seq: int, tag: str | None = None, move: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    message: dict[str, Any] = {"type": "match.notice", "match": str(match_id), "seq": seq}
    if move is not None:
        # The committed log row: other processes follow the move without a read.
        message["move"] = move
    if tag:
        # Seats changed, seq did not: a new tag makes each process reload its snapshot once
        # (the process that made the change has it already).
        message["presence"] = tag
    return group_name(match_id), message


def notify(
    match_id: Any, seq: int, tag: str | None = None, move: dict[str, Any] | None = None
) -> None:
    """Tell the match's group where it stands. Lost notices are healed by resync/ping."""
    group, message = notice(match_id, seq, tag, move)
    collected = _deferred.get()
    if collected is not None:
        collected.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:
        # The channel layer is down (Redis): the move is committed; sockets catch up from the
        # database when it returns (consumers resync) or on their next frame.
        log.warning("could not broadcast a match notice: %s", type(exc).__name__)


def collecting_notices(function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a service call so that it returns (result, notices) instead of sending them."""

    def call(*args: Any, **kwargs: Any) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
        collected: list[tuple[str, dict[str, Any]]] = []
        token = _deferred.set(collected)
        try:
            return function(*args, **kwargs), collected
        finally:
            _deferred.reset(token)

    return call


async def send_notices(notices: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    for group, message in notices:
        try:
            await layer.group_send(group, message)
        except Exception as exc:
            log.warning("could not broadcast a match notice: %s", type(exc).__name__)


def group_name(match_id: Any) -> str:
    hex_id = match_id.hex if hasattr(match_id, "hex") else str(match_id).replace("-", "")
    return f"match.{hex_id}"


def _after_commit(
    match: Match,
    remember: tuple[list[Seat], Any, list[Action]] | None = None,
    presence: tuple[list[Seat], frames.Snapshot] | None = None,
    reread: bool = False,
) -> None:
    """After the commit: refresh this process's snapshot, tell the group, queue the timer.

    `remember`: a move's (seats, state, new log rows); `presence`: the seats after a
    presence change and the snapshot at this seq; neither: the process's snapshot is dropped.
    """
    match_id, seq, due_at = match.id, match.seq, match.due_at
    # `reread`: seats changed, seq did not, and this process has no snapshot to keep.
    tag = secrets.token_hex(6) if presence is not None or reread else None
    move = None
    if remember is not None:
        seats, state, rows = remember
        transaction.on_commit(lambda: frames.remember(match, seats, state, rows))
        if len(rows) == 1 and rows[0].kind == Action.Kind.GAME:
            move = frames.move_notice(match, rows[0])
    elif presence is not None:
        seats, base = presence
        transaction.on_commit(lambda: frames.remember_presence(match, seats, tag, base))
    else:
        transaction.on_commit(lambda: frames.forget(match_id))
    transaction.on_commit(lambda: notify(match_id, seq, tag, move))
    if due_at is not None and conf("CELERY", False):
        transaction.on_commit(lambda: _schedule_task(match_id, seq, due_at))


def _schedule_task(match_id: Any, seq: int, due_at: datetime) -> None:
    from matches.tasks import advance_match

    try:
        advance_match.apply_async((str(match_id), seq), eta=due_at)
    except Exception:
        # The periodic sweeper and the in-process driver still move the match.
        log.exception("could not queue a match task")


# --- loading ----------------------------------------------------------------------------


def _lock(match_id: Any) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("not_found") from None


def get_game(match: Match) -> Game:
    return gamekit.registry.get(match.game)


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).order_by("index"))


def default_level(game: Game) -> str:
    return game.cpu_levels[0].key if game.cpu_levels else ""


# --- the log ----------------------------------------------------------------------------


def _append(
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


def replay(match: Match) -> Any:
    """The state reached by replaying the log from the seed (None before the start)."""
    game = get_game(match)
    state = None
    for row in match.actions.order_by("seq"):
        if row.kind == Action.Kind.ROOM and row.action.get("type") == "start":
            specs = [SeatSpec(**spec) for spec in row.action["seats"]]
            state = game.new_state(match.settings, specs, match.seed)
        elif row.kind == Action.Kind.GAME:
            state, _events = game.apply(state, row.seat, row.action)
        elif row.kind == Action.Kind.ROOM and row.action.get("type") == "out":
            state, _events = game.remove_seat(state, row.seat)
    return state


# --- turns, presence and the server's own moves ------------------------------------------


def absent_since(match: Match, seat: Seat, now: datetime) -> datetime | None:
    """When a human seat's holder went away (None while connected)."""
    if seat.is_cpu:
        return None
    if seat.connections <= 0:
        return seat.disconnected_since or match.created
    if seat.last_seen and seat.last_seen < now - presence_stale():
        return seat.last_seen  # a server died without closing the socket
    return None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def turn_since(match: Match, index: int) -> datetime | None:
    """When it became this seat's turn (None when it is not its turn)."""
    ms = (match.turns or {}).get(str(index))
    return None if ms is None else _moment(ms)


def _seat_due(match: Match, game: Game, seat: Seat, now: datetime) -> datetime | None:
    """When the server should play this seat's turn by itself, if ever."""
    since = turn_since(match, seat.index) or now
    # Pacing counts from the last move, so a CPU's second draw in a row is paced too.
    last_move = _moment(match.turns["last"]) if "last" in (match.turns or {}) else since
    paced = max(since, last_move) + cpu_delay(game)
    if seat.is_cpu:
        return paced
    gone = absent_since(match, seat, now)
    if gone is None:
        return None
    start = max(since, gone)
    remaining = max(0, disconnect_grace_ms() - seat.away_ms)
    return max(start + timedelta(milliseconds=remaining), paced)


def _update_turns(
    match: Match, game: Game, state: Any, seats: list[Seat], before: Iterable[int], now: datetime
) -> None:
    """Start and stop the seats' turn clocks (kept on the match row, saved with it) and set
    `match.due_at`. A seat's away time is written only when an absent seat's turn ends."""
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
                Seat.objects.filter(pk=seat.pk).update(away_ms=seat.away_ms)
            turns.pop(key, None)
        elif seat.index in after and key not in turns:
            turns[key] = _ms(now)
    turns["last"] = _ms(now)
    match.turns = turns
    dues = [_seat_due(match, game, s, now) for s in seats if s.index in after]
    dues = [d for d in dues if d is not None]
    match.due_at = min(dues) if dues else None


def _refresh_due(
    match: Match, now: datetime, seats: list[Seat] | None = None, state: Any = None
) -> None:
    """Recompute `due_at` after a presence change (no new log row)."""
    if match.status != Match.Status.PLAYING or match.state is None:
        match.due_at = None
        return
    game = get_game(match)
    if state is None:
        state = game.load_state(match.state)
    if seats is None:
        seats = _seats(match)
    to_act = set(game.to_act(state))
    dues = [_seat_due(match, game, s, now) for s in seats if s.index in to_act]
    dues = [d for d in dues if d is not None]
    match.due_at = min(dues) if dues else None


def presence(match_id: Any, seat_indices: Iterable[int], delta: int) -> int | None:
    """A socket holding these seats opened (+1) or closed (-1). Returns the match's seq."""
    seat_indices = list(seat_indices)
    if not seat_indices:
        return None
    now = timezone.now()
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        for seat in seats:
            if seat.index not in seat_indices or seat.is_cpu:
                continue
            seat.connections = max(0, seat.connections + delta)
            seat.last_seen = now
            if delta > 0:
                seat.disconnected_since = None
                seat.away_ms = 0  # back with the token: the disconnect clock ends
            elif seat.connections == 0:
                seat.disconnected_since = now
            seat.save(update_fields=["connections", "last_seen", "disconnected_since", "away_ms"])
        _refresh_due(match, now, seats)
        match.save(update_fields=["due_at", "updated"])
        cached = frames.peek(match.pk)
        # Under the lock the log cannot move: a snapshot read now is this seq's.
        base = cached if cached and cached.match.seq == match.seq else frames.read(match, seats)
        _after_commit(match, presence=(seats, base))
        return match.seq


def heartbeat(match_id: Any, seat_indices: Iterable[int]) -> None:
    renew_leases({match_id: seat_indices})


def renew_leases(held: Mapping[Any, Iterable[int]]) -> None:
    """This process still has sockets for these seats ({match: seat indices}): renew their
    leases, and re-assert them if a sweep expired them while this process was busy."""
    now = timezone.now()
    items = [(match_id, sorted(set(indices))) for match_id, indices in held.items() if indices]
    for start in range(0, len(items), 100):  # one statement per 100 matches
        where = Q()
        for match_id, indices in items[start : start + 100]:
            where |= Q(match_id=match_id, index__in=indices)
        Seat.objects.filter(where, kind=Seat.Kind.HUMAN).exclude(token_hash="").update(
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
        match = _lock(match_id)
        seats = _seats(match)
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
            _refresh_due(match, now, seats)
            match.save(update_fields=["due_at", "updated"])
            _after_commit(match, reread=True)
        return expired


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


@dataclass(frozen=True)
class Applied:
    seq: int
    duplicate: bool = False  # a retried action id: applied before, not again


def _pick_due(
    match: Match, game: Game, state: Any, seats: list[Seat], now: datetime
) -> tuple[Seat, str] | None:
    for seat in seats:
        if seat.index not in game.to_act(state):
            continue
        due = _seat_due(match, game, seat, now)
        if due is not None and due <= now:
            return seat, (Action.Actor.CPU if seat.is_cpu else Action.Actor.TIMEOUT)
    return None


def advance(match_id: Any, expected_seq: int | None = None) -> int | None:
    """Play one server-side move that is due (CPU seat or timed-out player).

    Returns the new seq, or None when nothing was due or the match moved on
    since the move was scheduled (`expected_seq`): never twice for one turn.
    """
    now = timezone.now()
    snap = frames.current(match_id)
    with transaction.atomic():
        seq = store.lock_seq(match_id)
        if seq is None or (expected_seq is not None and seq != expected_seq):
            return None
        if seq != snap.match.seq:  # this process's snapshot is behind: read it again
            snap = frames.current(match_id, fresh=True)
        match = copy.copy(snap.match)
        if match.status != Match.Status.PLAYING:
            return None
        game = get_game(match)
        state = snap.state
        seats = store.seats(match_id)  # fresh: presence decides whose turn is overdue
        picked = _pick_due(match, game, state, seats, now)
        if picked is None:
            due_before = match.due_at
            _refresh_due(match, now, seats, state)
            if match.due_at != due_before:
                match.updated = now
                store.update_match(match, ["due_at", "updated"])
                # Every process reads the match again (a seat's lease ran out: its server
                # died) and arms its timer for the new due time.
                _after_commit(match, reread=True)
            return None
        seat, actor = picked
        if actor == Action.Actor.TIMEOUT and game.on_leave == LeavePolicy.OUT:
            # Away past the grace in a game whose leavers are out: out, not played for.
            _put_out(match, game, state, seats, seat.index, "away", now)
            store.update_match(match, MOVE_FIELDS)
            _after_commit(match)
            return match.seq
        before = game.to_act(state)
        action = cpu_move(game, state, seat.index, seat.cpu_level or default_level(game), match)
        after, events = game.apply(state, seat.index, action)  # a GameError is an engine bug
        events = game_events.encode(events)
        _record_move(match, game, seats, seat.index, action, after, events, before, actor, now)
        return match.seq


def cpu_move(game: Game, state: Any, index: int, level: str, match: Match) -> dict[str, Any]:
    """The CPU's action for a seat: its policy is handed that seat's view and nothing else
    (no state, no other seat's view). Its randomness comes from the server-side seed, so a
    replay of the log reproduces every CPU move."""
    rng = random.Random(f"{match.seed}:{match.seq}:{index}")
    return game.cpu_policy(game.view(state, index), index, level, rng)


MOVE_FIELDS = ("seq", "state", "status", "turns", "due_at", "updated")


def _record_move(
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
    """Inside the transaction that locked `match` at its seq: log the move, save the state.

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
    _finish_if_over(match, game, state)
    _update_turns(match, game, state, seats, before, now)
    match.state = game.dump_state(state)
    match.updated = now
    store.update_match(match, MOVE_FIELDS)
    store.insert_action(row)
    _after_commit(match, remember=(seats, state, [row]))


def _finish_if_over(match: Match, game: Game, state: Any) -> None:
    if game.result(state) is not None:
        match.status = Match.Status.FINISHED


def due_matches(older_than: timedelta, limit: int = 200) -> list[tuple[Any, int]]:
    """Playing matches whose server-side move is overdue (for the periodic sweeper)."""
    cutoff = timezone.now() - older_than
    rows = Match.objects.filter(status=Match.Status.PLAYING, due_at__lte=cutoff)
    # (Seats whose server died are found by `expire_leases`, which sets their due time.)
    return list(rows.values_list("id", "seq")[:limit])


# --- creating, joining, starting -----------------------------------------------------------


def new_seed(game: Game, game_settings: Mapping[str, Any]) -> int:
    """The deal's seed: the one the settings fix (a game number), or a fresh random one."""
    fixed = game.seed_for(game_settings)
    return secrets.randbits(game.seed_bits) if fixed is None else int(fixed)


def create_match(
    game_slug: str, game_settings: Mapping[str, Any], mode: str, cpu_level: str | None = None
) -> tuple[Match, str]:
    """Create a match and its seats; return it with the creator's seat token (shown once)."""
    game = gamekit.registry.get(game_slug)
    if mode not in {m.value for m in game.modes}:
        raise MatchError("not_allowed", f"mode {mode}")
    levels = [level.key for level in game.cpu_levels]
    level = cpu_level or default_level(game)
    if levels and level not in levels:
        raise MatchError("not_allowed", "cpu level")
    count = game.player_count(game_settings)
    if not game.min_players <= count <= game.max_players:
        raise MatchError("not_allowed", "player count")
    if count > len(gamekit.SEAT_COLOURS):
        raise MatchError("not_allowed", "too many seats")
    if mode == Match.Mode.SOLO and count != 1:
        raise MatchError("not_allowed", "solo is one seat")
    token = new_token()
    digest = hash_token(token)
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=game.slug,
            settings=dict(game_settings),
            seed=new_seed(game, game_settings),
            mode=mode,
            invite_code=secrets.token_urlsafe(12) if mode == Match.Mode.FRIEND else None,
        )
        seats = []
        for index in range(count):
            creator = index == 0
            human = creator or mode in (Match.Mode.HOTSEAT, Match.Mode.FRIEND)
            seats.append(
                Seat(
                    match=match,
                    index=index,
                    colour=gamekit.SEAT_COLOURS[index],
                    kind=Seat.Kind.HUMAN if human else Seat.Kind.CPU,
                    cpu_level=level,
                    # Hot-seat: one token holds every seat of the device.
                    token_hash=digest if creator or mode == Match.Mode.HOTSEAT else "",
                    is_owner=creator,
                    disconnected_since=now,
                )
            )
        Seat.objects.bulk_create(seats)
        if mode != Match.Mode.FRIEND:
            _start(match, game, seats, now)
        _after_commit(match)
    return match, token


def _start(match: Match, game: Game, seats: list[Seat], now: datetime) -> None:
    specs = [
        SeatSpec(index=s.index, colour=s.colour, is_cpu=s.is_cpu, cpu_level=s.cpu_level or None)
        for s in seats
    ]
    state = game.new_state(match.settings, specs, match.seed)
    match.status = Match.Status.PLAYING
    _append(
        match,
        kind="room",
        seat=None,
        action={"type": "start", "seats": [spec.__dict__ for spec in specs]},
        events=[{"type": "started"}],
        actor=Action.Actor.SYSTEM,
    )
    _finish_if_over(match, game, state)
    _update_turns(match, game, state, seats, (), now)
    match.state = game.dump_state(state)
    match.save()


def join(invite_code: str) -> tuple[Match, int, str]:
    """Take the next empty seat of a friend room. Two joins at once never share a seat."""
    if not isinstance(invite_code, str) or not invite_code:
        raise MatchError("bad_invite")
    with transaction.atomic():
        found = Match.objects.filter(invite_code=invite_code).values_list("pk", flat=True).first()
        if found is None:
            raise MatchError("bad_invite")
        match = _lock(found)
        if match.invite_code != invite_code:  # rotated while we waited for the lock
            raise MatchError("bad_invite")
        if match.status != Match.Status.WAITING:
            raise MatchError("room_full")
        seats = _seats(match)
        empty = [s for s in seats if not s.is_taken]
        if not empty:
            raise MatchError("room_full")
        seat = empty[0]
        token = new_token()
        seat.token_hash = hash_token(token)
        seat.disconnected_since = timezone.now()
        seat.save(update_fields=["token_hash", "disconnected_since"])
        _append(
            match,
            kind="room",
            seat=seat.index,
            action={"type": "join"},
            events=[{"type": "joined", "seat": seat.index}],
            actor=Action.Actor.HUMAN,
        )
        if len(empty) == 1:  # the room is full: play
            _start(match, get_game(match), seats, timezone.now())
        else:
            match.save()
        _after_commit(match)
        return match, seat.index, token


def start_with_cpu(match_id: Any, held: Iterable[int]) -> int:
    """The room's creator lets CPUs take the empty seats and starts at once."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.WAITING:
            raise MatchError("not_waiting")
        seats = _seats(match)
        if not any(s.is_owner and s.index in set(still_held(seats, held)) for s in seats):
            raise MatchError("not_owner")
        for seat in seats:
            if not seat.is_taken:
                seat.kind = Seat.Kind.CPU
                seat.save(update_fields=["kind"])
        _start(match, get_game(match), seats, timezone.now())
        _after_commit(match)
        return match.seq


def new_invite(match_id: Any, held: Iterable[int]) -> str:
    """Invite again with a new URL: the old one stops working."""
    held = list(held)
    if not held:
        raise MatchError("spectator")
    with transaction.atomic():
        match = _lock(match_id)
        if match.mode != Match.Mode.FRIEND:
            raise MatchError("not_allowed")
        if match.status == Match.Status.FINISHED:
            raise MatchError("finished")  # nobody can join a finished match
        if not still_held(_seats(match), held):
            raise MatchError("spectator")
        match.invite_code = secrets.token_urlsafe(12)
        _append(
            match,
            kind="room",
            seat=None,
            action={"type": "invite"},
            events=[{"type": "invite_changed"}],
            actor=Action.Actor.HUMAN,
        )
        match.save()
        _after_commit(match)
        return match.invite_code


# --- acting -------------------------------------------------------------------------------


def _choose_seat(held: list[int], seat: int | None, to_act: Iterable[int]) -> int:
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
) -> Applied:
    """Apply one person's action, or refuse it with a MatchError/GameError (nothing changes).

    The action is checked and applied to this process's snapshot of the match, then
    written in one transaction that first locks the match row and confirms it is still
    at the snapshot's seq. If another process moved first, the snapshot is read again
    and the action decided again; a refusal made on a cached snapshot is also checked
    against a fresh one before it is sent.
    """
    held = list(held)
    action = protocol.check_action(action)  # bounded before any game sees it
    snap, reloaded = frames.current(match_id), False
    for _attempt in range(4):
        now = timezone.now()
        try:
            decision = _decide(snap, held, action, seat, action_id, expected_seq)
        except (MatchError, GameError):
            if not reloaded:
                snap, reloaded = frames.current(match_id, fresh=True), True
                continue
            earlier = _logged(match_id, held, action_id)
            if earlier is None:
                raise
            return earlier
        if isinstance(decision, Applied):
            return decision
        index, action, state, events, before = decision
        try:
            with transaction.atomic():
                if store.lock_seq(match_id) != snap.match.seq:
                    raise _MovedOn
                seats = store.seats(match_id)
                if index not in still_held(seats, [index]):
                    raise _MovedOn  # the seat was handed to the CPU meanwhile: decide again
                match = copy.copy(snap.match)
                _record_move(
                    match, get_game(match), seats, index, action, state, events, before,
                    Action.Actor.HUMAN, now, action_id,
                )  # fmt: skip
            return Applied(match.seq)
        except _MovedOn:
            snap, reloaded = frames.current(match_id, fresh=True), True
        except IntegrityError:
            earlier = _logged(match_id, held, action_id)  # the same id, logged before
            if earlier is None:
                raise
            return earlier
    raise MatchError("stale")  # other moves kept landing first; the client gets the view


class _MovedOn(Exception):
    """The match row's seq is not the snapshot's: another process moved first."""


def _decide(
    snap: frames.Snapshot,
    held: list[int],
    action: Mapping[str, Any],
    seat: int | None,
    action_id: str | None,
    expected_seq: int | None,
) -> Applied | tuple[int, dict[str, Any], Any, list[dict[str, Any]], tuple[int, ...]]:
    """Check an action against a snapshot: a duplicate's Applied, or (seat, the action as the
    game keeps it, state, events, who was to act before); raises MatchError/GameError."""
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
    index = _choose_seat(held, seat, before)
    if index not in before:
        raise gamekit.NotYourTurnError("not your turn")
    action = game.clean_action(action)  # only the keys the game declares are kept and logged
    try:
        state, events = game.apply(snap.state, index, action)
        events = game_events.encode(events)
    except GameError:
        raise
    except Exception as exc:
        # An engine that trips over odd input refused it; log the kind, not the content.
        log.warning("engine %s raised %s on an action", game.slug, type(exc).__name__)
        raise gamekit.InvalidActionError("engine refused the action") from None
    return index, action, state, events, before


def _duplicate(row: Action, held: list[int]) -> Applied:
    if row.seat not in held:
        raise MatchError("duplicate_action_id")
    return Applied(row.seq, duplicate=True)


def _logged(match_id: Any, held: list[int], action_id: str | None) -> Applied | None:
    """A retried action id found in the log (older than the snapshot's rows), or None."""
    if action_id is None:
        return None
    row = Action.objects.filter(match_id=match_id, client_action_id=action_id).first()
    return None if row is None else _duplicate(row, held)


def resign(match_id: Any, held: Iterable[int], seat: int | None = None) -> int:
    """Two players: resigning ends the match. In a game whose leavers are out
    (`LeavePolicy.OUT`) the player is out, at any table size, and the others play on."""
    return _depart(match_id, held, seat, "resign")


def leave(match_id: Any, held: Iterable[int], seat: int | None = None) -> int:
    """Three or more players: the CPU takes the leaver's seat for the rest of the match. In
    a game whose leavers are out (`LeavePolicy.OUT`) the leaver is out, at any table size."""
    return _depart(match_id, held, seat, "leave")


def _depart(match_id: Any, held: Iterable[int], seat: int | None, how: str) -> int:
    held = list(held)
    now = timezone.now()
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.PLAYING:
            raise MatchError("finished" if match.status == Match.Status.FINISHED else "not_started")
        seats = _seats(match)
        held = still_held(seats, held)  # a seat already handed to the CPU cannot leave again
        game = get_game(match)
        if game.on_leave == LeavePolicy.OUT:
            index = _choose_seat(held, seat, held)
            _put_out(match, game, game.load_state(match.state), seats, index, how, now)
        elif how == "resign":
            if len(seats) != 2:
                raise MatchError("not_allowed")
            index = _choose_seat(held, seat, held)
            match.status = Match.Status.FINISHED
            match.outcome = {"type": "resigned", "seat": index}
            _append(
                match,
                kind="room",
                seat=index,
                action={"type": "resign"},
                events=[{"type": "resigned", "seat": index}],
                actor=Action.Actor.HUMAN,
            )
            match.due_at = None
        else:
            if len(seats) < 3:
                raise MatchError("not_allowed")
            index = _choose_seat(held, seat, held)
            _hand_to_cpu(match, game, seats, index, now)
        match.save()
        _after_commit(match)
        return match.seq


def _hand_to_cpu(match: Match, game: Game, seats: list[Seat], index: int, now: datetime) -> None:
    """`LeavePolicy.CPU`: the leaver's seat is the CPU's for the rest of the match."""
    leaver = seats[index]
    leaver.kind = Seat.Kind.CPU
    leaver.token_hash = ""
    leaver.cpu_level = leaver.cpu_level or default_level(game)
    leaver.save(update_fields=["kind", "token_hash", "cpu_level"])
    _append(
        match,
        kind="room",
        seat=index,
        action={"type": "leave"},
        events=[{"type": "left", "seat": index}],
        actor=Action.Actor.HUMAN,
    )
    state = game.load_state(match.state)
    to_act = game.to_act(state)
    _update_turns(match, game, state, seats, to_act, now)


def _put_out(
    match: Match, game: Game, state: Any, seats: list[Seat], index: int, reason: str, now: datetime
) -> None:
    """`LeavePolicy.OUT`: the player in seat `index` is out of the game (they left, resigned
    or were away past the grace). The game's own events follow the room's in the log row;
    `replay` runs `remove_seat` for it. The seat keeps its token: the player may watch."""
    before = game.to_act(state)
    state, events = game.remove_seat(state, index)
    _append(
        match,
        kind="room",
        seat=index,
        action={"type": "out", "reason": reason},
        events=[{"type": "out", "seat": index, "reason": reason}, *game_events.encode(events)],
        actor=Action.Actor.TIMEOUT if reason == "away" else Action.Actor.HUMAN,
    )
    _finish_if_over(match, game, state)
    _update_turns(match, game, state, seats, before, now)
    match.state = game.dump_state(state)
    match.updated = now


def rematch(match_id: Any, token: str | None) -> tuple[Match, str | None]:
    """Play again: one next match however often it is asked for (idempotent).

    A player of this match gets the same seats in the next one (a fresh token);
    anyone else (a spectator) is just shown the way there.
    """
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.FINISHED:
            raise MatchError("not_allowed")
        old_seats = _seats(match)
        held = still_held(old_seats, seats_for_token(old_seats, token))
        if match.next_match_id is None and not held:
            raise MatchError("spectator")  # only the players start the next match
        if match.next_match_id is None:
            game = get_game(match)
            next_settings = game.rematch_settings(match.settings)
            nxt = Match.objects.create(
                game=match.game,
                settings=next_settings,
                seed=new_seed(game, next_settings),
                mode=match.mode,
                invite_code=secrets.token_urlsafe(12) if match.mode == Match.Mode.FRIEND else None,
            )
            Seat.objects.bulk_create(
                Seat(
                    match=nxt,
                    index=s.index,
                    colour=s.colour,
                    kind=s.kind,
                    cpu_level=s.cpu_level,
                    is_owner=s.is_owner,
                    disconnected_since=timezone.now(),
                )
                for s in old_seats
            )
            match.next_match = nxt
            _append(
                match,
                kind="room",
                seat=None,
                action={"type": "rematch"},
                events=[{"type": "rematch"}],
                actor=Action.Actor.HUMAN,
            )
            match.save()
            _after_commit(match)
        nxt_id = match.next_match_id
    if not held:
        return Match.objects.get(pk=nxt_id), None
    return _claim(nxt_id, held)


def _claim(match_id: Any, indices: list[int]) -> tuple[Match, str | None]:
    """Give a returning player their seats in the next match (if still free)."""
    token = new_token()
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        mine = [s for s in seats if s.index in indices and not s.is_taken]
        if not mine or match.status != Match.Status.WAITING:
            return match, None
        for seat in mine:
            seat.token_hash = hash_token(token)
            seat.save(update_fields=["token_hash"])
        _append(
            match,
            kind="room",
            seat=mine[0].index,
            action={"type": "join"},
            events=[{"type": "joined", "seat": s.index} for s in mine],
            actor=Action.Actor.HUMAN,
        )
        if all(s.is_taken for s in seats):
            _start(match, get_game(match), seats, timezone.now())
        else:
            match.save()
        _after_commit(match)
        return match, token
