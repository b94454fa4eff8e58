"""No leak through the match layer, in every mode: every frame sent to a connection — a
friend's seat, a spectator, a vs-CPU player, and a shared (hot-seat) device before and after
"show me" — shows only cards its viewer seat may know at that point of the game."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async

from games.bakudan import engine
from matches import services
from matches.models import Match
from tests.games.bakudan.test_properties import ids_in, known_to
from tests.matches.helpers import Client, states_by_seq

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
    pytest.mark.slow,
]
db = database_sync_to_async


def known(state, seat: int | None) -> set[str]:
    return set() if state is None else known_to(state, seat)  # None: before the deal


def leaked(frame: dict, states: dict[int, object]) -> set[str]:
    """Card ids in a frame its viewer seat did not know: the view by the frame's state, each
    log line by what the seat knew just before or just after it (its own draw, say)."""
    seat = frame.get("view_seat")
    found = ids_in(frame.get("view")) - known(states[frame["seq"]], seat)
    for entry in frame.get("events", []):
        k = entry["seq"]
        found |= ids_in(entry) - known(states[k], seat) - known(states[k - 1], seat)
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
