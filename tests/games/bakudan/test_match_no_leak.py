"""No leak through the match layer, in every mode: every frame sent to a connection — a
friend's seat, a spectator, a vs-CPU player, and a shared (hot-seat) device before and after
"show me" — shows only cards its viewer seat may know at that point of the game."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from channels.db import database_sync_to_async

import gamekit
from gamekit import SeatSpec
from games.bakudan import engine
from matches import services
from matches.models import Action, Match
from tests.matches.helpers import Client

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
    pytest.mark.slow,
]
db = database_sync_to_async
CARD_ID = re.compile(r"\bc[0-9a-f]{8}\b")


def ids_in(data) -> set[str]:
    return set(CARD_ID.findall(json.dumps(data)))


def known_to(state, seat: int | None) -> set[str]:
    """Card ids `seat` (None: nobody in particular) may see in this state."""
    if state is None:
        return set()
    public = set(state.discard) | {c for c in state.shields if c is not None}
    if seat is None:
        return public
    mine = set(state.hands[seat]) | set(state.notes[seat].values())
    if state.last_draw[seat] is not None:
        mine.add(state.last_draw[seat])
    return public | mine


def states_by_seq(match: Match) -> dict[int, object]:
    game = gamekit.registry.get(match.game)
    state, states = None, {0: None}
    for row in Action.objects.filter(match=match).order_by("seq"):
        if row.kind == "room" and row.action["type"] == "start":
            specs = [SeatSpec(**spec) for spec in row.action["seats"]]
            state = game.new_state(match.settings, specs, match.seed)
        elif row.kind == "game":
            state, _ = game.apply(state, row.seat, row.action)
        elif row.kind == "room" and row.action["type"] == "out":
            state, _ = game.remove_seat(state, row.seat)
        states[row.seq] = state
    return states


def leaked(frame: dict, states: dict[int, object]) -> set[str]:
    seat = frame.get("view_seat")
    found = ids_in(frame.get("view")) - known_to(states[frame["seq"]], seat)
    for entry in frame.get("events", []):
        k = entry["seq"]
        found |= ids_in(entry) - known_to(states[k], seat) - known_to(states[k - 1], seat)
    return found


async def act_from_view(client: Client, seat: int, rng: random.Random) -> None:
    """What a person does: choose among the legal moves their own view lists."""
    action = rng.choice(client.view["legal"])
    await client.send({"type": "act", "action": action, "action_id": f"{seat}-{client.seq}",
                       "seat": seat})  # fmt: skip
    await client.until(lambda f: f["type"] in ("ack", "error"))


async def player(client: Client, seat: int, rng: random.Random) -> None:
    for _ in range(2000):
        if client.room.get("status") == "finished":
            return
        if seat in client.room.get("to_act", []) and client.view and client.view["legal"]:
            await act_from_view(client, seat, rng)
        else:
            await client.until(lambda f: f["type"] in ("state", "room"), timeout=20)
    raise AssertionError("the match did not end")


async def device(client: Client, rng: random.Random) -> None:
    """A shared device: the next player claims it ("show me"), then plays their turn."""
    for _ in range(2000):
        if client.room.get("status") == "finished":
            return
        frame = [f for f in client.frames if f["type"] == "state"][-1]
        if "handoff" in frame:
            assert frame["view"] is None
            seat = frame["handoff"]["seat"]
            await client.send({"type": "reveal", "seat": seat})
            await client.until(lambda f, s=seat: f["type"] == "state" and f["view_seat"] == s)
        elif client.view_seat is not None and client.view["legal"]:
            await act_from_view(client, client.view_seat, rng)
        else:
            await client.until(lambda f: f["type"] in ("state", "room"), timeout=20)
    raise AssertionError("the match did not end")


async def play(mode: str, players: int, seed: int) -> tuple[Match, list[Client]]:
    rng = random.Random(seed)
    level = rng.choice(["reckless", "calm", "ruthless"])
    match, token = await db(services.create_match)("bakudan", {"players": players}, mode, level)
    watcher = Client(match.id)
    if mode == "friend":
        humans = rng.randint(2, players)  # the rest go to the CPU at the start
        tokens = {0: token}
        for _ in range(humans - 1):
            _m, seat, t = await db(services.join)(match.invite_code)
            tokens[seat] = t
        clients = {seat: Client(match.id, t) for seat, t in tokens.items()}
        for client in [*clients.values(), watcher]:
            await client.connect(since=0)
        if humans < players:
            await clients[0].send({"type": "start"})
        tasks = [player(c, s, random.Random(seed * 10 + s)) for s, c in clients.items()]
        everyone = [*clients.values(), watcher]
    else:
        own = Client(match.id, token)
        for client in (own, watcher):
            await client.connect(since=0)
        tasks = [device(own, rng) if mode == "hotseat" else player(own, 0, rng)]
        everyone = [own, watcher]
    finished = watcher.until(
        lambda f: f["type"] == "state" and f["match"]["status"] == "finished", 120
    )
    await asyncio.gather(*tasks, finished)
    for client in everyone:
        await client.close()
    return await db(Match.objects.get)(pk=match.id), everyone


@pytest.mark.parametrize("mode", ["cpu", "hotseat", "friend"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_no_frame_shows_a_card_its_viewer_may_not_know(settings, mode, players):
    settings.MATCHES_CPU_DELAY_MS = 0
    settings.MATCHES_RATE_PER_S = settings.MATCHES_RATE_BURST = 10_000  # bots play flat out
    checked = 0
    for seed in range(2):
        match, clients = await play(mode, players, seed + 10 * players)
        assert match.status == "finished"
        states = await db(states_by_seq)(match)
        for client in clients:
            for frame in client.frames:
                if frame["type"] not in ("state", "error") or "seq" not in frame:
                    continue
                assert not leaked(frame, states), (mode, frame.get("view_seat"), frame["seq"])
                if client.token is None:
                    assert frame.get("view_seat") is None  # a spectator
                elif mode == "friend":
                    assert frame.get("view_seat") in (None, *await db(services.token_seats)(
                        match.id, client.token))  # fmt: skip
                checked += 1
        # The hidden cards were really there: hands were dealt and the deck was drawn from.
        assert any(engine.BOMB in json.dumps(f) for c in clients for f in c.frames)
    assert checked > 20
