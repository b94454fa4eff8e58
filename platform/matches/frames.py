"""What a client is sent: its own seat's view, the room, and the log entries it missed.
Building frames only; the snapshots they are built from are `matches.snapshots`.

Frames are built per *viewer seat*, not per connection: a connection holding one seat sees
that seat; a hot-seat device holding every seat sees the seat whose turn it is, and for a
game with `private_hands` only after that player has claimed the device ("show me",
`Viewer.revealed`) — until then it gets a blind frame naming who the device goes to.
Events reach each viewer through `gamekit.events.for_viewer`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone, translation

from gamekit import events as game_events
from matches import snapshots, timed
from matches.clock import absent_since, takeover_at
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
    # For a person away: in how many ms the CPU plays for them (the 45 s rule), when known.
    human = seat.is_taken and not seat.is_cpu
    takeover = takeover_at(match, get_game(match), seat, now) if human else None
    return {
        "index": seat.index,
        "colour": seat.colour,
        "kind": seat.kind,
        "cpu_level": seat.cpu_level if seat.is_cpu else None,
        "taken": seat.is_taken,
        "connected": seat.is_cpu or (seat.is_taken and absent_since(match, seat, now) is None),
        "cpu_in_ms": (
            None if takeover is None else max(0, int((takeover - now).total_seconds() * 1000))
        ),
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
        "due_in_ms": (
            max(0, int((match.due_at - now).total_seconds() * 1000)) if match.due_at else None
        ),
    }
    if held and match.invite_code and match.status != Match.Status.FINISHED:
        # Only seated players may invite, and only while the match is not over.
        info["invite_code"] = match.invite_code
    return info


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
) -> dict[str, Any]:
    """The `state` message for one viewer: their seat's view, the room, events since `since`
    (each log line with its events in words, in `lang`; the active language if None)."""
    return _compose(snapshots.snapshot(match_id, min_seq, tag, fresh), viewer, since, lang)


def _compose(snap: Snapshot, viewer: Viewer, since: int | None, lang: str | None) -> dict[str, Any]:
    now = timezone.now()
    match, seats = snap.match, snap.seats
    game = get_game(match)
    # A socket keeps the seats it had at hello: a seat handed to the CPU since is not its own.
    held = tuple(still_held(seats, viewer.held))
    if held != viewer.held:
        viewer = Viewer(held, viewer.revealed, viewer.owd)
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
        "match": room_info(match, seats, viewer.held, to_act, now, str(game.on_leave)),
    }
    if game.realtime:  # a timed game: the view as released now, `at` and `part`
        timed.timed_frame(frame, game, match, now, viewer.owd)
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
