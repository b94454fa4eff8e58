"""The "lean" baseline of bench/bench_matches.py (`--lean`): the cheapest honest move a
rebuilt match layer could make with the real game, to tell whether issue 40's band (a move
within 1.5x of a floor round) is reachable on this stack at all (docs/matches.md, "Issue 40:
the lean move").

One owner per match in the server process's memory (`LeanMatch`: the state, the seq, a lock
so acts apply one at a time, in order). A socket's act is parsed strictly (the match
socket's own `protocol.parse` and `protocol.check_action`), cleaned and applied with the
real engine through the plugin contract (`Game.clean_action`, `Game.apply`: refusals
possible, nothing changed then), written durably as one log row (one autocommitted INSERT
on the sockets' database thread, through `db_call` as a move's write; the row as the real
log's: match, seq, seat, action, events, actor, action id, with the log's two unique
constraints, so the fence and a retried id are the database's to refuse), and only then
told: one delta per match (the seq, the act's id, its events, who acts next), encoded once
with orjson and sent through the channel layer's group as the floor's frames are. A game's
`Private` events are shown per seat (`gamekit.events.for_viewer`): a seat in `only` gets a
frame of its own; Bozu, the bench's game, has none (it hides only the pile order, which no
event reveals), so its four seats share one frame. The actor knows its ack by the act's id
in the delta (no frame of its own).

What it leaves out, on purpose: the stored state (the match row is not rewritten: recovery
would replay the log, or a checkpoint every k moves and the log after it), the seats'
views after a move (a socket gets a view once, when it connects), presence, turn clocks and
timers, CPU seats, the lease and forwarding (the proxy hashes a match's sockets to one
process, so its owner is always local), translations of refusals, group commit. Used only
by bench/asgi_bench.py (route `bench/lean/<group>/<players>/?seat=<n>&game=<slug>`).
"""

from __future__ import annotations

import asyncio
import functools
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import IntegrityError, connection

import gamekit
from bench.baseline_tables import LEAN_TABLE
from gamekit import SEAT_COLOURS, GameError, SeatSpec
from gamekit.events import PRIVATE, encode, for_viewer
from matches import protocol, services
from matches.dbcall import db_call
from matches.errors import MatchError
from matches.protocol import BadFrame
from matches.ratelimit import TokenBucket


def default_settings(game: Any, players: int) -> dict[str, Any]:
    """A game's settings as its menu's defaults post them (as bench_matches.create_matches)."""
    form = game.settings_form(data=None) if game.settings_form else None
    if form is None:
        return {"players": players}
    initial = {}
    for name, form_field in form.fields.items():
        value = form.get_initial_for_field(form_field, name)
        if value is None and getattr(form_field, "choices", None):
            value = next(iter(form_field.choices))[0]
        initial[name] = value
    initial["players"] = players
    bound = game.settings_form(data=initial)
    if not bound.is_valid():
        raise ValueError(bound.errors)
    return game.settings_from_form(bound.cleaned_data)


def delta_frames(
    seq: int,
    action_id: str | None,
    stored: Sequence[Mapping[str, Any]],
    to_act: Sequence[int],
    seats: int,
) -> tuple[str, dict[int, str]]:
    """The frames one move sends: (the frame every seat gets, {seat: its own frame} for the
    seats a `Private` event shows more to; keys are strings, as msgpack keeps them through
    the Redis layer). Each distinct frame is built and encoded once."""

    def frame(events: list[dict[str, Any]]) -> str:
        return orjson.dumps(
            {"type": "delta", "seq": seq, "ack": action_id, "events": events, "to_act": to_act}
        ).decode()

    shared = frame(for_viewer(stored, None))
    private = {s for event in stored if event.get("type") == PRIVATE for s in event["only"]}
    own = {str(seat): frame(for_viewer(stored, seat)) for seat in sorted(private) if seat < seats}
    return shared, own


@dataclass
class LeanMatch:
    """A match's one writer in this process: its state lives here, never reloaded."""

    key: str
    game: Any
    settings: dict[str, Any]
    seats: int
    seed: int
    state: Any = None
    seq: int = 0
    deals: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def deal(self) -> None:
        specs = [SeatSpec(i, SEAT_COLOURS[i % len(SEAT_COLOURS)]) for i in range(self.seats)]
        self.state = self.game.new_state(self.settings, specs, self.seed + self.deals)
        self.deals += 1

    def to_act(self) -> list[int]:
        return list(self.game.to_act(self.state))


OWNERS: dict[str, LeanMatch] = {}


@functools.cache
def _game(slug: str) -> Any:
    return gamekit.registry.get(slug)


def owner_of(slug: str, group: int, seats: int) -> LeanMatch:
    key = f"{slug}-{group}-{seats}"
    match = OWNERS.get(key)
    if match is None:
        game = _game(slug)
        match = LeanMatch(key, game, default_settings(game, seats), seats, seed=group)
        match.deal()
        OWNERS[key] = match
    return match


def write_log(match: str, seq: int, seat: int, action: str, events: str, action_id: str) -> None:
    """One act made durable: one autocommitted INSERT (the state itself is not written)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {LEAN_TABLE} (match, seq, kind, seat, action, events, actor,"
            " client_action_id) VALUES (%s, %s, 'game', %s, %s, %s, 'human', %s)",
            [match, seq, seat, action, events, action_id],
        )


log_row = db_call(write_log)


class DirectDispatch:
    """A consumer's messages handled without Channels' per-message close_old_connections
    hop (sync_to_async each time), as the match consumer's socketbase does: for the record
    and lean baselines, which a move's path is compared with."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class LeanConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """A seat's socket: parses an act, applies it as the match's owner (in this process),
    and sends on the deltas the owner publishes. The route: `bench/lean/<group>/<players>/`,
    the seat and the game in the query (`?seat=0&game=bozu`), so the proxy, hashing the path,
    sends a group's sockets to one process as it does a match's."""

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        query = urllib.parse.parse_qs(self.scope.get("query_string", b"").decode())
        self.seat = int(query["seat"][0])
        slug = query.get("game", ["bozu"])[0]
        self.match = owner_of(slug, kwargs["group"], kwargs["players"])
        self.group = f"lean-{kwargs['group']}"
        self.bucket = TokenBucket(services.conf("RATE_PER_S", 20), services.conf("RATE_BURST", 40))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        match = self.match
        async with match.lock:  # a joiner's view, once: the table as it is now
            view = match.game.view(match.state, self.seat)
            await self.send(
                text_data=orjson.dumps(
                    {"type": "sync", "seq": match.seq, "to_act": match.to_act(), "view": view}
                ).decode()
            )

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        ref = None
        try:
            if not self.bucket.take():  # named, as the match socket names a dropped act
                ref = protocol.dropped_ref(text_data)
                raise MatchError("rate_limited")
            message = protocol.parse(text_data)
            ref = protocol.action_id(message)
            if message["type"] != "act":
                raise BadFrame("unknown_type")
            if ref is None:
                raise BadFrame("bad_message")
            expected = protocol.seat_number(message.get("seq"))
            action = protocol.check_action(message.get("action"))
            await self.act(action, ref, expected)
        except (MatchError, GameError) as exc:
            error = {"type": "error", "code": exc.code, "ref": ref, "seq": self.match.seq}
            await self.send(text_data=orjson.dumps(error).decode())

    async def act(self, action: dict[str, Any], action_id: str, expected: int | None):
        match, seat = self.match, self.seat
        async with match.lock:  # one act at a time per match, in the order they came
            if expected is not None and expected != match.seq:
                raise MatchError("stale")
            action = match.game.clean_action(action)
            state, events = match.game.apply(match.state, seat, action)  # may refuse
            stored = encode(events)
            seq = match.seq + 1
            try:
                await log_row(
                    match.key, seq, seat, orjson.dumps(action).decode(),
                    orjson.dumps(stored).decode(), action_id,
                )  # fmt: skip
            except IntegrityError:  # the seq taken (another writer) or the id retried
                raise MatchError("stale") from None
            match.state, match.seq = state, seq
            to_act = match.to_act()
            if not to_act:  # game over: the bench deals the table again (1 act in ~100)
                match.deal()
                to_act = match.to_act()
            shared, own = delta_frames(seq, action_id, stored, to_act, match.seats)
            notice = {"type": "lean.delta", "text": shared}
            if own:
                notice["own"] = own
            await self.channel_layer.group_send(self.group, notice)

    async def lean_delta(self, message):
        own = message.get("own")
        text = own.get(str(self.seat), message["text"]) if own else message["text"]
        await self.send(text_data=text)
