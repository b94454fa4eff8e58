"""Frames per viewer seat and the hand-off of a shared device, over the real socket.

A hot-seat device of a game with hidden hands is one viewer at a time: it sees nothing but
whom to pass it to until that player says "show me", and only for that player's turn."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async

from matches import services
from matches.models import Match
from tests.matches.helpers import Client, a_legal_action, create, states_by_seq

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]
db = database_sync_to_async


def secrets(state, seat: int | None) -> set[str]:
    """Cards `seat` may not know in this state: the deck and every other hand."""
    if state is None:
        return set()
    hidden = set(state["deck"])
    for index, hand in enumerate(state["hands"]):
        if index != seat:
            hidden |= set(hand)
    return hidden


def leaks(frame: dict, states: dict[int, object]) -> set[str]:
    """Cards in a frame that its viewer seat did not know. A log line at seq k may show what
    that line itself taught the viewer (its own draw), so it is judged by what was secret
    both before and after it; the view, by the state of the frame's seq."""
    seat = frame.get("view_seat")
    found = set()
    view_text = json.dumps(frame.get("view"))
    found |= {c for c in secrets(states[frame["seq"]], seat) if c in view_text}
    for entry in frame.get("events", []):
        k = entry["seq"]
        unknown = secrets(states[k - 1], seat) & secrets(states[k], seat)
        text = json.dumps(entry)
        found |= {c for c in unknown if c in text}
    return found


async def play_hotseat(client: Client, rng: random.Random, claim=True) -> None:
    """Pass the device around: each player claims it ("show me"), then acts."""
    for _ in range(300):
        if client.room.get("status") == "finished":
            return
        seat = client.room["to_act"][0]
        if claim and client.view_seat != seat:
            await client.send({"type": "reveal", "seat": seat})
            await client.until(lambda f, s=seat: f["type"] == "state" and f["view_seat"] == s)
        action = await db(a_legal_action)(client.match_id, seat, rng)
        await client.send({"type": "act", "action": action, "action_id": f"a{client.seq}",
                           "seat": seat})  # fmt: skip
        await client.until(lambda f: f["type"] in ("ack", "error"))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", range(6))
async def test_no_frame_to_a_hotseat_device_or_spectator_shows_a_card_its_viewer_may_not_know(
    seed,
):
    players = 2 + seed % 3
    match, token = await db(create)(mode="hotseat", players=players, turns=8 + seed)
    device, watcher = Client(match.id, token), Client(match.id)
    await device.connect(since=0)
    await watcher.connect(since=0)
    await play_hotseat(device, random.Random(seed))
    await watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished")
    await device.close()
    await watcher.close()
    match = await db(Match.objects.get)(pk=match.id)
    states = await db(states_by_seq)(match)
    frames = [f for f in [*device.frames, *watcher.frames] if f["type"] in ("state", "error")]
    assert len(frames) > 4 * players
    for frame in frames:
        assert not leaks(frame, states), frame
    # Every seat held the device at some point, and the device was blind between players.
    shown = {f["view_seat"] for f in device.frames if f["type"] == "state"}
    assert set(range(players)) <= shown
    assert any("handoff" in f for f in device.frames if f["type"] == "state")


async def test_a_claim_lasts_one_turn_and_a_wrong_claim_is_refused():
    match, token = await db(create)(mode="hotseat", players=2, turns=10)
    device = Client(match.id, token)
    await device.connect()
    first = device.frames[-1]
    assert first["handoff"] == {"seat": 0} and first["view"] is None and first["view_seat"] is None
    # Not seat 1's turn: refused, still blind.
    await device.send({"type": "reveal", "seat": 1})
    error = await device.until(lambda f: f["type"] == "error")
    assert error["code"] == "no_handoff"
    assert device.view is None
    await device.send({"type": "reveal", "seat": 0})
    shown = await device.until(lambda f: f["type"] == "state" and f["view_seat"] == 0)
    assert shown["view"]["hand"] and "handoff" not in shown
    for seat in (0, 1):  # seat 0 plays; then seat 1 claims and plays
        if seat == 1:
            await device.send({"type": "reveal", "seat": 1})
            await device.until(lambda f: f["type"] == "state" and f["view_seat"] == 1)
        await device.send({"type": "act", "action": {"type": "draw"}, "action_id": f"d{seat}",
                           "seat": seat})  # fmt: skip
        await device.until(lambda f: f["type"] == "ack")
        blind = [f for f in device.frames if f["type"] == "state"][-1]
        assert blind["handoff"] == {"seat": 1 - seat} and blind["view"] is None
    # Seat 0's turn again: its claim of the first turn does not carry over.
    assert device.view is None and device.frames[-2]["handoff"] == {"seat": 0}
    await device.close()
    # A reconnect starts blind too.
    again = Client(match.id, token)
    await again.connect()
    assert again.frames[-1]["handoff"] == {"seat": 0}
    await again.close()


async def test_one_seat_per_connection_and_games_without_hidden_hands_need_no_claim():
    # A friend seat sees its own view and its own private events, never another's.
    match, token = await db(create)(mode="friend", players=2, turns=6)
    _m, _seat, guest_token = await db(services.join)(match.invite_code)
    host, guest = Client(match.id, token), Client(match.id, guest_token)
    await host.connect(since=0)
    await guest.connect(since=0)
    assert host.view_seat == 0 and guest.view_seat == 1 and "handoff" not in host.frames[-1]
    assert host.room["on_leave"] == "cpu"  # this game hands a leaver's seat to the CPU
    await host.send({"type": "act", "action": {"type": "draw"}, "action_id": "h1"})
    ack = await host.until(lambda f: f["type"] == "ack")
    frame = await guest.until(lambda f: f["type"] == "state" and f["seq"] == ack["seq"])
    assert [ev["type"] for e in frame["events"] for ev in e["events"]] == ["drew"]
    mine = [f for f in host.frames if f["type"] == "state" and f["seq"] == ack["seq"]]
    assert [ev["type"] for e in mine[0]["events"] for ev in e["events"]] == ["you_drew"]
    await host.close()
    await guest.close()
    # Bozu hides nothing a device must hand off: the seat to act is shown at once.
    bozu, token = await db(services.create_match)("bozu", {"players": 3}, "hotseat")
    device = Client(bozu.id, token)
    await device.connect()
    assert "handoff" not in device.frames[-1] and device.view_seat == device.room["to_act"][0]
    await device.close()
