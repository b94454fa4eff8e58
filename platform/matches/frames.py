"""What a client is sent: its own seat's view, the room, and the log entries it missed.
Building frames only; the snapshots they are built from are `matches.snapshots`.

Frames are built per *viewer seat*, not per connection: a connection holding one seat sees
that seat; a hot-seat device holding every seat sees the seat whose turn it is, and for a
game with `private_hands` only after that player has claimed the device ("show me",
`Viewer.revealed`) — until then it gets a blind frame naming who the device goes to.
Events reach each viewer through `gamekit.events.for_viewer`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from django.utils import timezone, translation

from gamekit import events as game_events
from matches import snapshots, timed
from matches.clock import absent_since, takeover_at
from matches.dbcall import db_call
from matches.epoch import epoch_ms, ms_until
from matches.handshake import speaking
from matches.log import get_game
from matches.models import Action, Match, Seat
from matches.snapshots import Snapshot
from matches.text import describe_room_events
from matches.tokens import still_held

EVENTS_LIMIT = 500  # a client further behind than this gets a full reset instead of events


@dataclass(frozen=True)
class Viewer:
    """Who a connection is: the seats its token holds and, on a shared device, the seat it
    was last handed to ("show me": the seat and the time in ms it claimed the device)."""

    held: tuple[int, ...] = ()
    revealed: tuple[int, int] | None = None
    # The connection's one-way delay (ms, `latency.py`): a timed game's reading is sent that
    # much earlier to it, so it arrives the same lead before it is due there (timed.py).
    owd: int | None = None

    @classmethod
    def of(
        cls, held: Iterable[int], revealed: tuple[int, int] | None = None, owd: int | None = None
    ) -> Viewer:
        return cls(tuple(held), revealed, owd)


@dataclass(slots=True)
class StateFrame:
    """One viewer's `state` frame (docs/protocol.md) as a value; `wire()` is the object sent.

    `release_in_ms` is never sent: a timed game's frame with a view grows again in that many
    ms (None: it will not); `releases` says the frame is such a frame, so the socket (re)arms
    its release timer from it."""

    seq: int
    view: Any
    view_seat: int | None
    match: dict[str, Any]  # the room (room_info), this viewer's `yours` and invite included
    events: list[dict[str, Any]]
    reset: bool = False  # the client starts over from this frame (too far behind, or new)
    handoff: int | None = None  # a shared device not handed over yet: the seat it goes to
    at: int | None = None  # timed games: when the state began (epoch ms)
    part: int | None = None  # timed games: how much of the state is released
    releases: bool = False
    release_in_ms: int | None = None
    # Never sent: the frame encoded (`encode`), kept for the other viewers who share it.
    text: str | None = field(default=None, compare=False, repr=False)

    def wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "view": self.view,
            "view_seat": self.view_seat,
            "match": self.match,
        }
        if self.at is not None:
            body["at"] = self.at
        if self.part is not None:
            body["part"] = self.part
        if self.handoff is not None:
            body["handoff"] = {"seat": self.handoff}
        if self.reset:
            body["reset"] = True
        body["events"] = self.events
        return body


@dataclass(frozen=True, slots=True)
class RoomFrame:
    """A `room` frame: the room changed (a seat, the invite), the state did not."""

    seq: int
    match: dict[str, Any]

    def wire(self) -> dict[str, Any]:
        return {"type": "room", "seq": self.seq, "match": self.match}


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


def seat_public(
    match: Match, seat: Seat, held: Iterable[int], now: datetime, handle: str | None = None
) -> dict[str, Any]:
    # For a person away: in how many ms the CPU plays for them (the 45 s rule), when known,
    # and that moment on the server's clock (epoch ms): a page counts down to `cpu_at` on its
    # estimate of that clock, so a frame held, shared or read late shows the same seconds.
    human = seat.is_taken and not seat.is_cpu
    takeover = takeover_at(match, get_game(match), seat, now) if human else None
    return {
        "index": seat.index,
        "colour": seat.colour,
        # The signed-in person's handle (public: shown at the table); None: named by colour.
        "handle": handle,
        "kind": seat.kind,
        "cpu_level": seat.cpu_level if seat.is_cpu else None,
        "taken": seat.is_taken,
        "connected": seat.is_cpu or (seat.is_taken and absent_since(match, seat, now) is None),
        "cpu_in_ms": (
            None if takeover is None else max(0, int((takeover - now).total_seconds() * 1000))
        ),
        "cpu_at": None if takeover is None else epoch_ms(takeover),
        "owner": seat.is_owner,
        "yours": seat.index in held,
    }


def room_info(
    match: Match,
    seats: list[Seat],
    held: Iterable[int],
    to_act: list[int],
    now: datetime,
    on_leave: str = "cpu",
) -> dict[str, Any]:
    info: dict[str, Any] = {
        "id": str(match.id),
        "game": match.game,
        "mode": match.mode,
        # What leaving (or staying away past the grace) means here: "cpu" takes the seat,
        # or the player is "out" (Game.on_leave).
        "on_leave": on_leave,
        "status": match.status,
        "seats": [seat_public(match, s, held, now) for s in seats],
        "to_act": to_act,
        "outcome": match.outcome,
        "next_match": str(match.next_match_id) if match.next_match_id else None,
        # When the server plays by itself (a CPU, or the CPU for a disconnected player).
        "due_in_ms": ms_until(match.due_at, now) if match.due_at else None,
    }
    if _invites(match, held):
        info["invite_code"] = match.invite_code
    return info


def _invites(match: Match, held: Iterable[int]) -> bool:
    """Only seated players may invite, and only while the match is not over."""
    return bool(held and match.invite_code and match.status != Match.Status.FINISHED)


def cached_frame(
    match_id: Any,
    viewer: Viewer,
    since: int | None,
    min_seq: int,
    tag: str | None = None,
    lang: str | None = None,
) -> StateFrame | None:
    """The frame from this process's snapshot without touching the database, or None.

    Safe on the event loop: no query is made (a miss or an old `since` returns None).
    """
    snap = snapshots.peek(match_id)
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
) -> StateFrame:
    """The `state` message for one viewer: their seat's view, the room, events since `since`
    (each log line with its events in words, in `lang`; the active language if None)."""
    return _compose(snapshots.snapshot(match_id, min_seq, tag, fresh), viewer, since, lang)


def _compose(snap: Snapshot, viewer: Viewer, since: int | None, lang: str | None) -> StateFrame:
    now = timezone.now()
    match = snap.match
    game = get_game(match)
    # A socket keeps the seats it had at hello: a seat handed to the CPU since is not its own.
    held = _still_held(snap, viewer.held)
    if held != viewer.held:
        viewer = Viewer(held, viewer.revealed, viewer.owd)
    view = None
    to_act = _to_act(snap, game)
    view_seat, handoff = viewer_seat(game, match, snap.state, viewer, to_act)
    if snap.state is not None and handoff is None:
        if view_seat not in snap.views:
            snap.views[view_seat] = game.view(snap.state, view_seat)
        view = snap.views[view_seat]
    # Built per viewer seat as ever; what viewers share (views, seats, each holding's room,
    # log entries) is built once per snapshot.
    room = _room(snap, game, held, to_act, now)
    reset = since is None or since > match.seq or match.seq - since > EVENTS_LIMIT
    lang = lang or translation.get_language()
    # Viewers of the same content (a seat open in two tabs, spectators) share one frame, and
    # so its encoding, unless it is taken at its own moment (a timed game's release, a move
    # due), or the room it was built with has gone stale.
    key = ("frame", held, view_seat, handoff, None if reset else since, lang)
    kept = snap.shared.get(key)
    if kept is not None and kept[0] is room:
        return kept[1]
    frame = StateFrame(match.seq, view, view_seat, room, [], handoff=handoff, reset=reset)
    released = timed.released(game, match, view, now, viewer.owd)
    if released is not None:  # a timed game: the view as released now, `at` and `part`
        frame.view, frame.at, frame.part = released.view, released.at, released.part
        frame.releases, frame.release_in_ms = released.grows, released.next_in_ms
    if not reset:
        frame.events = _entries(snap, game, since, view_seat, lang)
    if released is None and match.due_at is None:
        snap.shared[key] = (room, frame)
    return frame


def _still_held(snap: Snapshot, held: tuple[int, ...]) -> tuple[int, ...]:
    """`tokens.still_held` against the snapshot's seats, once per holding."""
    key = ("held", held)
    still = snap.shared.get(key)
    if still is None:
        still = tuple(still_held(snap.seats, held))
        snap.shared[key] = still
    return still


def _to_act(snap: Snapshot, game: Any) -> list[int]:
    to_act = snap.shared.get("to_act")
    if to_act is None:
        to_act = []
        if snap.state is not None and snap.match.status == Match.Status.PLAYING:
            to_act = list(game.to_act(snap.state))
        snap.shared["to_act"] = to_act
    return to_act


def _groups(snap: Snapshot, game: Any) -> list[list[int]]:
    """The seats of each group (team), when the game has groups: the room lists its seats
    by them, and they change while the room waits if its creator moves seats."""
    groups = snap.shared.get("groups")
    if groups is None:
        groups = [list(group.seats) for group in game.seat_groups(snap.match.settings)]
        snap.shared["groups"] = groups
    return groups


SEATS_FRESH_S = 0.25  # a snapshot's seats as shown ("connected") are rebuilt this often


def _room(
    snap: Snapshot, game: Any, held: tuple[int, ...], to_act: list[int], now: datetime
) -> dict[str, Any]:
    """`room_info` (and the groups) from parts shared by the snapshot's viewers: the seats as
    everyone sees them, and the whole room once per holding (`yours` and the invite are the
    holding's own), kept while those seats are. Only `due_in_ms` is taken at each frame's
    moment (the server's own timer is armed from it: consumers.push)."""
    match = snap.match
    clock = time.monotonic()
    seats = snap.shared.get("seats")
    if seats is None or clock - seats[0] > SEATS_FRESH_S:
        public = [seat_public(match, s, (), now, snap.handles.get(s.index)) for s in snap.seats]
        # Each seat as its holder's frame shows it and as everyone else's does.
        yours = {p["index"]: {**p, "yours": True} for p in public}
        base = room_info(match, [], (), to_act, now, str(game.on_leave))
        seats = (clock, public, yours, base)
        snap.shared["seats"] = seats
    key = ("room", held)
    kept = snap.shared.get(key)
    if kept is None or kept[0] is not seats:
        _clock, public, yours, base = seats
        info = dict(base)
        info["seats"] = [yours[p["index"]] if p["index"] in held else p for p in public]
        if _invites(match, held):
            info["invite_code"] = match.invite_code
        if groups := _groups(snap, game):
            info["groups"] = groups
        kept = (seats, info)
        snap.shared[key] = kept
    room = kept[1]
    if match.due_at is not None:  # the one field that moves with the clock: its place kept
        room = {**room, "due_in_ms": ms_until(match.due_at, now)}
    return room


def _entries(
    snap: Snapshot, game: Any, since: int, view_seat: int | None, lang: str | None
) -> list[dict[str, Any]]:
    """The log entries after `since` as `view_seat` sees them; from the snapshot's rows, one
    list for every viewer who sees the same events (all of them, unless a row holds private
    events)."""
    match = snap.match
    first_cached = snap.rows[0].seq if snap.rows else match.seq + 1
    lang = lang or translation.get_language()
    if since + 1 < first_cached:
        rows = list(
            Action.objects.filter(match=match, seq__gt=since, seq__lte=match.seq).order_by("seq")
        )
        return [_entry(snap, game, row, view_seat, lang) for row in rows]
    after = snap.shared.get(("after", since))
    if after is None:
        # The rows are contiguous and end at match.seq: those after `since` are the last ones.
        rows = snap.rows[len(snap.rows) - (match.seq - since) :] if match.seq > since else []
        if rows and rows[0].seq != since + 1:  # not so after all: pick them out
            rows = [row for row in snap.rows if row.seq > since]
        private = any(e.get("type") == game_events.PRIVATE for row in rows for e in row.events)
        after = (rows, private)
        snap.shared[("after", since)] = after
    rows, private = after
    key = ("entries", since, lang, view_seat if private else "all")
    entries = snap.shared.get(key)
    if entries is None:
        entries = [_entry(snap, game, row, view_seat, lang) for row in rows]
        snap.shared[key] = entries
    return entries


def _entry(snap: Snapshot, game: Any, row: Action, view_seat: int | None, lang: str) -> dict:
    events = game_events.for_viewer(row.events, view_seat)
    return {
        "seq": row.seq,
        "seat": row.seat,
        "actor": row.actor,
        "kind": row.kind,  # "game": the engine's events; "room": the platform's
        "events": events,
        "texts": _texts(snap, game, row, events, lang),
    }


def encode(
    frame: StateFrame | RoomFrame | dict[str, Any], extra: dict[str, Any] | None = None
) -> str:
    """A frame as JSON text, with `extra` keys after its own: orjson, the whole frame at once,
    no text spliced (bench/bench_frame_encoding.py: 7.6 µs of CPU a Bozu frame, against 32
    for the standard library's json with the shared parts encoded once and spliced in).
    Integer keys become strings, as json.dumps writes them."""
    if isinstance(frame, StateFrame) and not extra:
        if frame.text is None:  # once per frame, however many viewers share it
            frame.text = orjson.dumps(frame.wire(), option=_OPTIONS).decode()
        return frame.text
    body = frame if isinstance(frame, dict) else frame.wire()
    return orjson.dumps({**body, **extra} if extra else body, option=_OPTIONS).decode()


_OPTIONS = orjson.OPT_NON_STR_KEYS


def _texts(
    snap: Snapshot, game: Any, row: Action, events: list[dict[str, Any]], lang: str
) -> list[str]:
    """The log line in words. Shared by every viewer who sees the same events (cached)."""
    private = any(e.get("type") == game_events.PRIVATE for e in row.events)
    key = (row.seq, lang, repr(events) if private else None)
    texts = snap.texts.get(key)
    if texts is None:
        # A socket's frame is built in its own language already (consumers.push_quietly).
        with speaking(lang):
            if row.kind == Action.Kind.GAME:
                texts = [str(t) for t in game.describe_events(events)]
            elif row.action.get("type") == "out":  # the room's line, then the game's own
                texts = describe_room_events(events[:1])
                texts += [str(t) for t in game.describe_events(events[1:])]
            else:  # room lines (start, joins, resignations) are the platform's
                texts = describe_room_events(events)
        snap.texts[key] = texts
    return texts


async def frame_for(
    match_id: Any,
    viewer: Viewer,
    since: int | None,
    min_seq: int | None = None,
    tag: str | None = None,
    lang: str | None = None,
) -> tuple[StateFrame, Snapshot | None]:
    """A connection's frame, and the snapshot it came from when that was this process's
    (None: read from the database). With `min_seq` the process's snapshot is used when it
    is at least that recent (no database, no thread hop); without, the database is read."""
    if min_seq is not None:
        # Taken before the frame is built: if the cache moves on meanwhile, the next notice
        # is answered again (never skipped on a snapshot this frame did not show).
        seen = snapshots.peek(match_id)
        frame = cached_frame(match_id, viewer, since, min_seq, tag, lang=lang)
        if frame is not None:
            return frame, seen
    frame = await db_call(build_frame)(
        match_id, viewer, since, min_seq=min_seq, tag=tag, fresh=min_seq is None, lang=lang
    )
    return frame, None


def add_view(error: dict[str, Any], match_id: Any, viewer: Viewer) -> dict[str, Any]:
    """A refusal's current view (database thread); a shared device not yet handed over
    still gets no view, only whom it goes to."""
    frame = build_frame(match_id, viewer, None, fresh=True)
    error.update(seq=frame.seq, view=frame.view, view_seat=frame.view_seat)
    if frame.handoff is not None:
        error["handoff"] = {"seat": frame.handoff}
    return error


class Sent:
    """What one connection was sent: the seq (and a timed game's `part` at it) and room."""

    def __init__(self, seq: int | None = None) -> None:
        self.seq, self.part, self.room = seq, 0, None

    def news(self, frame: StateFrame, force: bool = False) -> StateFrame | RoomFrame | None:
        """What of `frame` to send, recorded as sent: all of it when it is later (or forced,
        or more of the same state released), the room alone when only that changed."""
        part = frame.part or 0
        out: StateFrame | RoomFrame | None = None
        if force or self.seq is None or frame.seq > self.seq:
            self.seq, self.part = frame.seq, part
            out = frame
        elif frame.seq == self.seq and part > self.part:
            self.part = part  # the same state, more of it released
            out = frame
        elif frame.match != self.room:
            out = RoomFrame(frame.seq, frame.match)
        if out is not None:
            self.room = frame.match
        return out
