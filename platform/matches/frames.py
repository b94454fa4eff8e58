"""What a client is sent: its own seat's view, the room, and the log entries it missed.

A per-process snapshot cache keeps the latest (match, seats, state, recent log rows)
of each match, shared by the sockets of that match in this process. A change made in
this process fills the cache straight from the committed transaction; another
process's move is followed from its notice (`catch_up`); anything else (a presence
change elsewhere, a room change, a gap) is noticed by its notice's seq or presence tag
and read again, once per process. Views are always computed per seat by the game's
`view`; only the raw snapshot is shared (docs/matches.md, "Frames").

Frames are built per *viewer seat*, not per connection: a connection holding one seat sees
that seat; a hot-seat device holding every seat sees the seat whose turn it is, and for a
game with `private_hands` only after that player has claimed the device ("show me",
`Viewer.revealed`) — until then it gets a blind frame naming who the device goes to.
Events reach each viewer through `gamekit.events.for_viewer`.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone, translation

from gamekit import events as game_events
from matches.errors import MatchError
from matches.models import Action, Match, Seat
from matches.text import describe_room_events
from matches.tokens import still_held

log = logging.getLogger(__name__)

EVENTS_LIMIT = 500  # a client further behind than this gets a full reset instead of events
KEEP_ROWS = 64  # recent log rows kept with a snapshot
CACHE_SIZE = 4096  # matches


@dataclass
class Snapshot:
    match: Match
    seats: list[Seat]
    state: Any  # the game's loaded state, or None before the start
    rows: list[Action]  # contiguous log rows ending at match.seq (maybe fewer than all)
    # Presence notices this snapshot already reflects (a change made in this process, or
    # the notice it was loaded for); a notice with another tag means "read again".
    tags: frozenset[str] = frozenset()
    views: dict[Any, Any] = field(default_factory=dict)  # seat -> view, computed once
    texts: dict[Any, list[str]] = field(default_factory=dict)  # log line in words, per language


_lock = threading.Lock()
_cache: OrderedDict[str, Snapshot] = OrderedDict()


def _store(snapshot: Snapshot) -> Snapshot:
    key = str(snapshot.match.pk)
    with _lock:
        _cache[key] = snapshot
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return snapshot


def remember(match: Match, seats: list[Seat], state: Any, new_rows: list[Action]) -> None:
    """After a commit in this process: the snapshot is what was just written."""
    key = str(match.pk)
    with _lock:
        previous = _cache.get(key)
    rows = list(new_rows)
    tags: frozenset[str] = frozenset()
    if previous is not None and previous.match.seq == match.seq - len(new_rows):
        rows = (previous.rows + rows)[-KEEP_ROWS:]
        tags = previous.tags  # the seats were read again under the lock: still reflected
    _store(Snapshot(match, list(seats), state, rows, tags))


def remember_presence(match: Match, seats: list[Seat], tag: str, base: Snapshot) -> None:
    """After a presence change in this process (same seq, new seats): the state and rows of
    `base` (the snapshot at this seq), the new seats, and the change's notice `tag`, so
    this process's sockets answer that notice without a read."""
    with _lock:
        previous = _cache.get(str(match.pk))
    tags = frozenset([tag])
    if previous is not None and previous.match.seq == match.seq:
        tags |= previous.tags
    _store(Snapshot(match, list(seats), base.state, base.rows, tags, base.views, base.texts))


def move_notice(match: Match, row: Action) -> dict[str, Any]:
    """What a move's notice carries for other processes (never sent to a client as is)."""
    due = match.due_at
    return {
        "seq": row.seq,
        "seat": row.seat,
        "action": row.action,
        "events": row.events,
        "actor": row.actor,
        "action_id": row.client_action_id,
        "status": match.status,
        "turns": match.turns,
        "due_at": None if due is None else due.timestamp(),
    }


def catch_up(match_id: Any, move: Mapping[str, Any]) -> None:
    """Another process's move, from its notice: advance this process's snapshot by running
    the logged action through the engine (pure and deterministic) instead of reading the
    database. Anything unexpected just drops the snapshot; the next frame reads it."""
    from matches.services import get_game

    key = str(match_id)
    with _lock:
        snap = _cache.get(key)
    if snap is None or snap.state is None or snap.match.seq != move.get("seq", 0) - 1:
        return  # already there (a move of this process), or too far behind: read when needed
    try:
        game = get_game(snap.match)
        state, events = game.apply(snap.state, move["seat"], move["action"])
        if _canonical(game_events.encode(events)) != _canonical(move["events"]):
            raise ValueError("the engine gave other events than the log")
        match = copy.copy(snap.match)
        match.seq, match.status, match.turns = move["seq"], move["status"], move["turns"]
        due = move["due_at"]
        match.due_at = None if due is None else datetime.fromtimestamp(due, tz=UTC)
        match.state = game.dump_state(state)
        row = Action(
            match_id=snap.match.pk, seq=match.seq, kind=Action.Kind.GAME, seat=move["seat"],
            action=move["action"], events=move["events"], actor=move["actor"],
            client_action_id=move["action_id"],
        )  # fmt: skip
    except Exception as exc:
        log.warning("could not follow a move from its notice: %s", type(exc).__name__)
        forget(match_id)
        return
    caught = Snapshot(match, snap.seats, state, [*snap.rows, row][-KEEP_ROWS:], snap.tags)
    with _lock:
        if _cache.get(key) is snap:  # unless this process moved the snapshot meanwhile
            _cache[key] = caught
            _cache.move_to_end(key)


def _canonical(events: Any) -> str:
    return json.dumps(events, sort_keys=True, default=list)


def forget(match_id: Any) -> None:
    with _lock:
        _cache.pop(str(match_id), None)


def read(match: Match, seats: list[Seat]) -> Snapshot:
    """A snapshot of `match` (read, not stored): its loaded state and recent log rows."""
    from matches.services import get_game

    game = get_game(match)
    state = game.load_state(match.state) if match.state is not None else None
    # Bounded above too: rows committed after the match row was read belong to a later snapshot.
    recent = Action.objects.filter(
        match=match, seq__gt=max(0, match.seq - KEEP_ROWS), seq__lte=match.seq
    )
    return Snapshot(match, list(seats), state, list(recent.order_by("seq")))


def _load(match_id: Any, tag: str | None) -> Snapshot:
    try:
        match = Match.objects.get(pk=match_id)
    except (Match.DoesNotExist, ValueError):
        raise MatchError("not_found") from None
    snap = read(match, list(Seat.objects.filter(match=match).order_by("index")))
    # What earlier notices changed is committed, so this read reflects it too.
    with _lock:
        previous = _cache.get(str(match_id))
    if previous is not None:
        snap.tags = previous.tags
    if tag:
        snap.tags = snap.tags | {tag}
    return _store(snap)


def current(match_id: Any, fresh: bool = False) -> Snapshot:
    """This process's latest snapshot of the match (read from the database if it has none,
    or with `fresh`). It may be behind the database: writers confirm the seq under a lock."""
    if not fresh:
        with _lock:
            cached = _cache.get(str(match_id))
        if cached is not None:
            return cached
    return _load(match_id, None)


def snapshot(
    match_id: Any, min_seq: int | None = None, tag: str | None = None, fresh: bool = False
) -> Snapshot:
    """The match as of at least `min_seq` (and presence notice `tag`), from cache if it can."""
    if not fresh:
        with _lock:
            cached = _cache.get(str(match_id))
        if (
            cached is not None
            and min_seq is not None
            and cached.match.seq >= min_seq
            and (tag is None or tag in cached.tags)
        ):
            return cached
    return _load(match_id, tag)


# --- building frames ----------------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    """Who a connection is: the seats its token holds and, on a shared device, the seat it
    was last handed to ("show me": the seat and the time in ms it claimed the device)."""

    held: tuple[int, ...] = ()
    revealed: tuple[int, int] | None = None

    @classmethod
    def of(cls, held: Iterable[int], revealed: tuple[int, int] | None = None) -> Viewer:
        return cls(tuple(held), revealed)


def viewer_seat(
    game: Any, match: Match, state: Any, viewer: Viewer, to_act: list[int]
) -> tuple[int | None, int | None]:
    """(the seat whose view and events this viewer gets, the seat a shared device must be
    passed to first). None as the first: the spectator view (or no view, when handing off)."""
    held = viewer.held
    if not held or state is None:
        return None, None
    if len(held) == 1:
        return held[0], None
    acting = [s for s in held if s in to_act]
    if not game.private_hands:
        return (acting[0] if acting else held[0]), None
    if not acting:
        return None, None  # a CPU's turn, or the game is over: only public information
    seat = acting[0]
    if viewer.revealed is not None and viewer.revealed[0] == seat:
        # Claimed during this turn of that seat (a later turn of the same seat needs a new one).
        started = (match.turns or {}).get(str(seat))
        if started is not None and started <= viewer.revealed[1]:
            return seat, None
    return None, seat


def seat_public(match: Match, seat: Seat, held: Iterable[int], now: datetime) -> dict[str, Any]:
    from matches.services import absent_since

    return {
        "index": seat.index,
        "colour": seat.colour,
        "kind": seat.kind,
        "cpu_level": seat.cpu_level if seat.is_cpu else None,
        "taken": seat.is_taken,
        "connected": seat.is_cpu or (seat.is_taken and absent_since(match, seat, now) is None),
        "owner": seat.is_owner,
        "yours": seat.index in held,
    }


def room_info(
    match: Match, seats: list[Seat], held: Iterable[int], to_act: list[int], now: datetime
) -> dict[str, Any]:
    info: dict[str, Any] = {
        "id": str(match.id),
        "game": match.game,
        "mode": match.mode,
        "status": match.status,
        "seats": [seat_public(match, s, held, now) for s in seats],
        "to_act": to_act,
        "outcome": match.outcome,
        "next_match": str(match.next_match_id) if match.next_match_id else None,
        # When the server plays by itself (a CPU, or the CPU for a disconnected player).
        "due_in_ms": (
            max(0, int((match.due_at - now).total_seconds() * 1000)) if match.due_at else None
        ),
    }
    if held and match.invite_code:
        info["invite_code"] = match.invite_code  # only seated players may invite
    return info


def peek(match_id: Any) -> Snapshot | None:
    """This process's snapshot of the match, if it has one (no database)."""
    with _lock:
        return _cache.get(str(match_id))


def cached_frame(
    match_id: Any,
    viewer: Viewer,
    since: int | None,
    min_seq: int,
    tag: str | None = None,
    lang: str | None = None,
) -> dict[str, Any] | None:
    """The frame from this process's snapshot without touching the database, or None.

    Safe on the event loop: no query is made (a miss or an old `since` returns None).
    """
    with _lock:
        snap = _cache.get(str(match_id))
    if snap is None or snap.match.seq < min_seq or (tag is not None and tag not in snap.tags):
        return None
    if since is not None and since < snap.match.seq:
        first_cached = snap.rows[0].seq if snap.rows else snap.match.seq + 1
        if since + 1 < first_cached:
            return None
    return _compose(snap, viewer, since, lang)


def build_frame(
    match_id: Any,
    viewer: Viewer,
    since: int | None,
    *,
    min_seq: int | None = None,
    tag: str | None = None,
    fresh: bool = False,
    lang: str | None = None,
) -> dict[str, Any]:
    """The `state` message for one viewer: their seat's view, the room, events since `since`
    (each log line with its events in words, in `lang`; the active language if None)."""
    return _compose(snapshot(match_id, min_seq, tag, fresh), viewer, since, lang)


def _compose(snap: Snapshot, viewer: Viewer, since: int | None, lang: str | None) -> dict[str, Any]:
    from matches.services import get_game

    now = timezone.now()
    match, seats = snap.match, snap.seats
    game = get_game(match)
    # A socket keeps the seats it had at hello: a seat handed to the CPU since is not its own.
    held = tuple(still_held(seats, viewer.held))
    if held != viewer.held:
        viewer = Viewer(held, viewer.revealed)
    view = None
    to_act: list[int] = []
    if snap.state is not None and match.status == Match.Status.PLAYING:
        to_act = list(game.to_act(snap.state))
    view_seat, handoff = viewer_seat(game, match, snap.state, viewer, to_act)
    if snap.state is not None and handoff is None:
        if view_seat not in snap.views:
            snap.views[view_seat] = game.view(snap.state, view_seat)
        view = snap.views[view_seat]
    frame: dict[str, Any] = {
        "type": "state",
        "seq": match.seq,
        "view": view,
        "view_seat": view_seat,
        "match": room_info(match, seats, viewer.held, to_act, now),
    }
    if handoff is not None:
        frame["handoff"] = {"seat": handoff}
    if since is None or since > match.seq or match.seq - since > EVENTS_LIMIT:
        frame["reset"] = True
        frame["events"] = []
        return frame
    first_cached = snap.rows[0].seq if snap.rows else match.seq + 1
    if since + 1 >= first_cached:
        rows = [row for row in snap.rows if row.seq > since]
    else:
        rows = list(
            Action.objects.filter(match=match, seq__gt=since, seq__lte=match.seq).order_by("seq")
        )
    lang = lang or translation.get_language()
    entries = []
    for row in rows:
        events = game_events.for_viewer(row.events, view_seat)
        entries.append(
            {
                "seq": row.seq,
                "seat": row.seat,
                "actor": row.actor,
                "kind": row.kind,  # "game": the engine's events; "room": the platform's
                "events": events,
                "texts": _texts(snap, game, row, events, lang),
            }
        )
    frame["events"] = entries
    return frame


def _texts(
    snap: Snapshot, game: Any, row: Action, events: list[dict[str, Any]], lang: str
) -> list[str]:
    """The log line in words. Shared by every viewer who sees the same events (cached)."""
    private = any(e.get("type") == game_events.PRIVATE for e in row.events)
    key = (row.seq, lang, repr(events) if private else None)
    texts = snap.texts.get(key)
    if texts is None:
        with translation.override(lang):
            if row.kind == Action.Kind.GAME:
                texts = [str(t) for t in game.describe_events(events)]
            elif row.action.get("type") == "out":  # the room's line, then the game's own
                texts = describe_room_events(events[:1])
                texts += [str(t) for t in game.describe_events(events[1:])]
            else:  # room lines (start, joins, resignations) are the platform's
                texts = describe_room_events(events)
        snap.texts[key] = texts
    return texts
