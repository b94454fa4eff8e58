"""The per-process snapshot cache: the latest (match, seats, state, recent log rows) of each
match, shared by that match's sockets in this process (docs/matches.md, "Frames").

A change made in this process fills the cache straight from the committed transaction
(`remember`, `remember_presence`); another process's move is followed from its notice
(`catch_up`); anything else (a presence change elsewhere, a room change, a gap) is noticed
by its notice's seq or presence tag and read again, once per process.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model

from gamekit import events as game_events
from matches.errors import MatchError
from matches.log import get_game
from matches.models import Action, Match, Seat

log = logging.getLogger(__name__)


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
    # What every viewer's frame of this snapshot has in common, built and encoded once
    # (frames.py: the seats, the log entries as each visibility sees them, each seat's view).
    shared: dict[Any, Any] = field(default_factory=dict)
    # seat index -> the handle of its signed-in person (guests and CPUs have none), read
    # with the seats so that no frame needs a query (frames may be built on the event loop).
    handles: dict[int, str] = field(default_factory=dict)


def handles_of(seats: list[Seat], previous: Snapshot | None = None) -> dict[int, str]:
    """Each seat's person's handle: the previous snapshot's when its seats had the same
    people (a move changes nobody), else read (one query, only when someone is signed in)."""
    people = {s.index: s.user_id for s in seats if s.user_id is not None}
    if not people:
        return {}
    if previous is not None and people == {
        s.index: s.user_id for s in previous.seats if s.user_id is not None
    }:
        return previous.handles
    users = get_user_model().objects.in_bulk(set(people.values()))
    return {i: users[u].get_username() for i, u in people.items() if u in users}


TEXTS_KEPT = 4 * KEEP_ROWS  # log lines in words carried to the next snapshot, then pruned


def texts_after(previous: Snapshot | None, seq: int) -> dict[Any, list[str]]:
    """The log lines in words a snapshot at `seq` takes over from the match's previous one: a
    line's words depend only on the committed row (its seq names it) and the language, so
    only a new row's are new. Pruned to the rows a snapshot keeps once they grow."""
    if previous is None:
        return {}
    if len(previous.texts) <= TEXTS_KEPT:
        return previous.texts
    return {key: texts for key, texts in previous.texts.items() if key[0] > seq - KEEP_ROWS}


def news_after(snap: Snapshot, seen: int) -> int:
    """The seq to tell a socket that has seen `seen`: the snapshot's, unless every row after
    `seen` is a quiet line (moves._write_refusal), which waits for the socket's next frame."""
    after = [row for row in snap.rows if row.seq > seen]
    if len(after) != snap.match.seq - seen:
        return snap.match.seq  # rows not all cached: whatever they are, it is news
    loud = [row.seq for row in after if not (row.action or {}).get("quiet")]
    return max(loud, default=seen)


_guard = threading.Lock()


_cache: OrderedDict[str, Snapshot] = OrderedDict()


def put(snapshot: Snapshot) -> Snapshot:
    """Store a snapshot as this process's latest for its match (the cache keeps CACHE_SIZE)
    and return it; one of a later seq stored meanwhile is kept, and returned instead (two
    threads write here: the acts' and the heartbeat's, dbcall.background_call)."""
    key = str(snapshot.match.pk)
    with _guard:
        kept = _cache.get(key)
        if kept is not None and kept.match.seq > snapshot.match.seq:
            return kept
        _cache[key] = snapshot
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return snapshot


def remember(match: Match, seats: list[Seat], state: Any, new_rows: list[Action]) -> None:
    """After a commit in this process: the snapshot is what was just written."""
    key = str(match.pk)
    with _guard:
        previous = _cache.get(key)
    rows = list(new_rows)
    tags: frozenset[str] = frozenset()
    if previous is not None and previous.match.seq == match.seq - len(new_rows):
        rows = (previous.rows + rows)[-KEEP_ROWS:]
        tags = previous.tags  # the seats were read again under the lock: still reflected
    texts = texts_after(previous, match.seq)
    put(
        Snapshot(
            match, list(seats), state, rows, tags, texts=texts, handles=handles_of(seats, previous)
        )
    )


def remember_presence(match: Match, seats: list[Seat], tag: str, base: Snapshot) -> None:
    """After a presence change in this process (same seq, new seats): the state and rows of
    `base` (the snapshot at this seq), the new seats, and the change's notice `tag`, so
    this process's sockets answer that notice without a read."""
    with _guard:
        previous = _cache.get(str(match.pk))
    tags = frozenset([tag])
    if previous is not None and previous.match.seq == match.seq:
        tags |= previous.tags
    seen = handles_of(seats, base)
    put(
        Snapshot(
            match, list(seats), base.state, base.rows, tags, base.views, base.texts, handles=seen
        )
    )


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
        "outcome": match.outcome,
        "turns": match.turns,
        "due_at": None if due is None else due.timestamp(),
    }


def catch_up(match_id: Any, move: Mapping[str, Any]) -> None:
    """Another process's move, from its notice: advance this process's snapshot by running
    the logged action through the engine (pure and deterministic) instead of reading the
    database. Anything unexpected just drops the snapshot; the next frame reads it."""
    key = str(match_id)
    with _guard:
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
        match.outcome = move.get("outcome")
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
    rows = [*snap.rows, row][-KEEP_ROWS:]
    texts = texts_after(snap, match.seq)
    caught = Snapshot(match, snap.seats, state, rows, snap.tags, texts=texts, handles=snap.handles)
    with _guard:
        if _cache.get(key) is snap:  # unless this process moved the snapshot meanwhile
            _cache[key] = caught
            _cache.move_to_end(key)


def _canonical(events: Any) -> str:
    return json.dumps(events, sort_keys=True, default=list)


def forget(match_id: Any) -> None:
    with _guard:
        _cache.pop(str(match_id), None)


def read(match: Match, seats: list[Seat], rows: list[Action] | None = None) -> Snapshot:
    """A snapshot of `match` (read, not stored): its loaded state and recent log rows (those
    up to its seq: `rows`, when the caller read them already)."""
    game = get_game(match)
    state = game.load_state(match.state) if match.state is not None else None
    recent_rows = rows
    if recent_rows is None:
        # Bounded above too: rows committed after the match row was read belong to a later
        # snapshot.
        recent = Action.objects.filter(
            match=match, seq__gt=max(0, match.seq - KEEP_ROWS), seq__lte=match.seq
        )
        recent_rows = list(recent.order_by("seq"))
    return Snapshot(match, list(seats), state, recent_rows, handles=handles_of(seats))


def _load(match_id: Any, tag: str | None) -> Snapshot:
    try:
        match = Match.objects.get(pk=match_id)
    except (Match.DoesNotExist, ValueError):
        raise MatchError("not_found") from None
    snap = read(match, list(Seat.objects.filter(match=match).order_by("index")))
    # What earlier notices changed is committed, so this read reflects it too.
    with _guard:
        previous = _cache.get(str(match_id))
    if previous is not None:
        snap.tags = previous.tags
    if tag:
        snap.tags = snap.tags | {tag}
    return put(snap)


def current(match_id: Any, fresh: bool = False) -> Snapshot:
    """This process's latest snapshot of the match (read from the database if it has none,
    or with `fresh`). It may be behind the database: a write from it is fenced by the log's
    unique `(match, seq)` (moves.fenced)."""
    if not fresh:
        with _guard:
            cached = _cache.get(str(match_id))
        if cached is not None:
            return cached
    return _load(match_id, None)


def snapshot(
    match_id: Any, min_seq: int | None = None, tag: str | None = None, fresh: bool = False
) -> Snapshot:
    """The match as of at least `min_seq` (and presence notice `tag`), from cache if it can."""
    if not fresh:
        with _guard:
            cached = _cache.get(str(match_id))
        if (
            cached is not None
            and min_seq is not None
            and cached.match.seq >= min_seq
            and (tag is None or tag in cached.tags)
        ):
            return cached
    return _load(match_id, tag)


def peek(match_id: Any) -> Snapshot | None:
    """This process's snapshot of the match, if it has one (no database)."""
    with _guard:
        return _cache.get(str(match_id))


def answered(
    match_id: Any, seen: Snapshot | None, sent: int | None, seq: int, tag: str | None
) -> bool:
    """Whether a notice (seq, presence tag) is no news to a socket that was sent `sent`, or is
    answered by the frame it last built from `seen`: a burst of notices (a reconnect storm)
    is answered once."""
    if sent is not None and seq <= sent and not tag:
        return True
    return (
        seen is not None
        and peek(match_id) is seen
        and seq <= seen.match.seq
        and (tag is None or tag in seen.tags)
    )


def told_seq(match_id: Any, sent: int | None) -> int | None:
    """The seq a ping tells a socket that was sent `sent`, from this process's snapshot with
    no read; None when only the database knows (no snapshot, or news in this process)."""
    snap = peek(match_id)
    if snap is None or sent is None:
        return None
    told = news_after(snap, sent)
    return told if told <= sent else None  # nothing new in this process (a quiet line waits)
