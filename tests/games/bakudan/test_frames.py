"""No frame leaks a Bakudan card: every frame sent over the real socket in every mode — a
hot-seat device before and after "show me", friend seats, the person in a vs-CPU game, and
spectators — shows only card ids its viewer may know, and no game number before the end."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async

import gamekit
from matches import services
from matches.models import Match
from tests.matches.helpers import Client, states_by_seq

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]
db = database_sync_to_async


@pytest.fixture(autouse=True)
def quick_play(settings):
    """Bots act as fast as frames come: no rate limit, no CPU pause."""
    settings.MATCHES_RATE_BURST = 100_000
    settings.MATCHES_RATE_PER_S = 100_000
    settings.MATCHES_CPU_DELAY_MS = 0


def secrets(state, seat: int | None) -> set[str]:
    """Card ids `seat` may not know: the deck beyond its notes, every other hand, a bomb
    another seat holds to put back."""
    if state is None:
        return set()
    noted = set(state.notes[seat].values()) if seat is not None else set()
    hidden = set(state.deck) - noted
    for index, hand in enumerate(state.hands):
        if index != seat:
            hidden |= set(hand)
    if state.pending is not None and state.to_act != seat:
        hidden.add(state.pending)
    return hidden


def check(frames: list[dict], states: dict[int, object], number: str) -> int:
    game = gamekit.registry.get("bakudan")
    checked = 0
    for frame in frames:
        if frame["type"] not in ("state", "error"):
            continue
        seat, seq = frame.get("view_seat"), frame["seq"]
        text = json.dumps(frame)
        if not states[seq].over:
            assert number not in text and number.replace("-", "") not in text
        view_text = json.dumps(frame.get("view"))
        assert not {c for c in secrets(states[seq], seat) if c in view_text}, frame
        for entry in frame.get("events", []):
            k = entry["seq"]
            unknown = secrets(states[k - 1], seat) & secrets(states[k], seat)
            assert not {c for c in unknown if c in json.dumps(entry)}, entry
        if frame.get("view") is not None:
            assert frame["view"] == game.view(states[seq], seat)
        checked += 1
    return checked


async def finish(match_id, clients: list[Client]) -> tuple[dict, str]:
    for client in clients:
        await client.drain(0.2)
        await client.close()
    match = await db(Match.objects.get)(pk=match_id)
    assert match.status == Match.Status.FINISHED
    states = await db(states_by_seq)(match)
    last = states[max(states)]
    return states, last.number


async def settle(client: Client, since: int) -> None:
    """After an act: its ack and the state frame of that seq, in either order (so `room` and
    `view` are current). `since`: how many frames the client had before it sent the act."""
    reply = await client.until(lambda f: f["type"] in ("ack", "error"))
    assert reply["type"] == "ack", reply

    def current(frame: dict) -> bool:
        return frame["type"] == "state" and frame["seq"] >= reply["seq"]

    if not any(current(f) for f in client.frames[since:]):
        await client.until(current)


async def play_seat(client: Client, seat: int, rng: random.Random) -> None:
    """A friend seat or the person vs the CPU: acts from its own view's legal moves."""
    for _ in range(400):
        if client.room.get("status") == "finished":
            return
        if seat in client.room.get("to_act", []) and client.view and client.view["legal"]:
            action = rng.choice(client.view["legal"])
            since = len(client.frames)
            await client.send(
                {"type": "act", "action": action, "action_id": f"{seat}-{client.seq}"}
            )
            await settle(client, since)
        else:
            await client.until(lambda f: f["type"] in ("state", "room"), 30)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", range(3))
async def test_a_hot_seat_device_and_a_spectator_see_nothing_they_may_not(seed):
    players = 3 + seed % 3
    match, token = await db(services.create_match)("bakudan", {"players": players}, "hotseat")
    device, watcher = Client(match.id, token), Client(match.id)
    await device.connect(since=0)
    await watcher.connect(since=0)
    rng = random.Random(seed)
    for _ in range(400):
        if device.room.get("status") == "finished":
            break
        seat = device.room["to_act"][0]
        if device.view_seat != seat:
            assert device.view is None  # blind until the next player says "show me"
            await device.send({"type": "reveal", "seat": seat})
            await device.until(lambda f, s=seat: f["type"] == "state" and f["view_seat"] == s)
        action = rng.choice(device.view["legal"])
        since = len(device.frames)
        await device.send({"type": "act", "action": action, "action_id": f"a{device.seq}",
                           "seat": seat})  # fmt: skip
        await settle(device, since)
    states, number = await finish(match.id, [device, watcher])
    frames = [*device.frames, *watcher.frames]
    assert check(frames, states, number) > 20
    blind = [f for f in device.frames if f["type"] == "state" and "handoff" in f]
    assert blind and all(f["view"] is None for f in blind)
    assert {f["view_seat"] for f in device.frames if f["type"] == "state"} >= set(range(players))


async def test_friend_seats_and_a_spectator_see_nothing_they_may_not():
    match, host_token = await db(services.create_match)("bakudan", {"players": 3}, "friend")
    tokens = {0: host_token}
    for _ in range(2):
        _m, seat, token = await db(services.join)(match.invite_code)
        tokens[seat] = token
    clients = {seat: Client(match.id, token) for seat, token in tokens.items()}
    watcher = Client(match.id)
    for client in [*clients.values(), watcher]:
        await client.connect(since=0)
    await asyncio.gather(
        *(play_seat(c, seat, random.Random(seat)) for seat, c in clients.items()),
        watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished", 60),
    )
    states, number = await finish(match.id, [*clients.values(), watcher])
    for seat, client in clients.items():
        assert all(f["view_seat"] == seat for f in client.frames if f["type"] == "state")
    assert check([f for c in [*clients.values(), watcher] for f in c.frames], states, number) > 30
    # There were secrets to keep: private draws reached their own seat only. Every seat is
    # looked at: one seat may be out before it draws a safe card (a bomb on its first draw).
    private = {seat: [ev for f in client.frames if f["type"] == "state" for e in f["events"]
                      for ev in e["events"] if ev["type"] == "drew_card" and "card" in ev]
               for seat, client in clients.items()}  # fmt: skip
    assert any(private.values())
    assert all(ev["seat"] == seat for seat, draws in private.items() for ev in draws)


async def test_the_person_vs_the_cpu_sees_nothing_it_may_not():
    match, token = await db(services.create_match)("bakudan", {"players": 4}, "cpu", "calm")
    person, watcher = Client(match.id, token), Client(match.id)
    await person.connect(since=0)
    await watcher.connect(since=0)
    await asyncio.gather(
        play_seat(person, 0, random.Random(4)),
        watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished", 60),
    )
    states, number = await finish(match.id, [person, watcher])
    assert check([*person.frames, *watcher.frames], states, number) > 10
    final = [f for f in person.frames if f["type"] == "state"][-1]
    assert final["view"]["over"] and final["view"]["number"] == number
