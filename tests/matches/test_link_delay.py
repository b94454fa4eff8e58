"""One clock (issue 18): `pong.now`, and each connection's round trip measured by the server
from `ping.echo`/`ping.held` (matches/latency.py), used as the one-way delay and jitter in
stamps."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

import gamekit
from matches import consumers, services, socketbase
from matches.latency import LinkDelay
from matches.models import Action
from tests.matches.helpers import Client, load


async def db(call):
    from channels.db import database_sync_to_async

    return await database_sync_to_async(call)()


pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]


def test_the_lowest_recent_round_trip_is_the_estimate():
    link = LinkDelay()
    assert link.owd is None
    link.ponged(1000)
    link.ponged(2000)
    assert link.sample(1100, 1000, 40) == 60  # 100 ms later, 40 of them held: 60 ms
    assert link.sample(2090, 2000, 0) == 90
    assert link.rtt == 60 and link.owd == 30
    assert link.sample(2100, 3000, 0) is None  # an echo never sent on this connection
    assert link.sample(2010, 2000, 50) is None  # held longer than the round trip: absurd
    assert link.sample(20000, 2000, 0) is None  # over 10 s: absurd
    assert link.rtt == 60
    for k in range(20):  # only the recent samples count
        link.ponged(5000 + k)
        link.sample(5000 + k + 200, 5000 + k, 0)
    assert link.rtt == 200 and link.owd == 100


def feed(link, rtts, start=0):
    for k, rtt in enumerate(rtts):
        link.ponged(start + k)
        assert link.sample(start + k + rtt, start + k, 0) == rtt


def test_the_jitter_is_the_spread_of_the_recent_round_trips_but_one_stall():
    link = LinkDelay()
    assert link.jitter is None
    feed(link, [60])
    assert link.jitter == 0
    feed(link, [90], start=100)
    assert link.jitter == 30  # two samples: their whole spread
    # Eight samples: the second highest minus the lowest. One stall (300) is left out...
    feed(link, [61, 70, 64, 300, 62, 68, 60, 65], start=200)
    assert link.rtt == 60 and link.jitter == 10
    # ...a second one is not: the link is slow that often.
    feed(link, [250], start=300)
    assert link.rtt == 60 and link.jitter == 190
    # Old samples drop out: a steady link's spread shrinks back.
    feed(link, [80, 81, 82, 80, 84, 80, 83, 80], start=400)
    assert link.rtt == 80 and link.jitter == 3


async def pong(client, **fields):
    await client.send({"type": "ping", "t": 1, **fields})
    return await client.until(lambda f: f["type"] in ("pong", "error"))


async def test_pong_tells_the_time_and_pings_measure_the_connection(close_db_threads):
    match, token = await db(
        lambda: services.create_match(
            "karuta", {"mode": "competitive", "memorise_seconds": 0}, "friend"
        )
    )
    await db(lambda: services.join(match.invite_code))
    client = Client(match.id, token)
    await client.connect()
    before = time.time() * 1000
    first = await pong(client)
    assert first["t"] == 1 and isinstance(first["now"], int)
    assert before - 1 <= first["now"] <= time.time() * 1000 + 1
    last = first
    for _ in range(4):
        last = await pong(client, echo=last["now"], held=1)
    # Malformed clock fields are refused; a stranger's echo is ignored.
    for bad in ({"echo": "x"}, {"echo": True}, {"echo": -1}, {"echo": 1, "held": -1},
                {"echo": 1, "held": 60001}, {"held": 5}, {"echo": 1.5}):  # fmt: skip
        reply = await pong(client, **bad)
        assert reply["type"] == "error" and reply["code"] == "bad_message", bad
    assert (await pong(client, echo=123, held=0))["type"] == "pong"
    # The estimate is the one-way delay stamped on this connection's actions.
    stamp = await arrange_and_read_stamp(client, match)
    assert isinstance(stamp["owd"], int) and 0 <= stamp["owd"] < 50
    assert isinstance(stamp["jitter"], int) and 0 <= stamp["jitter"] < 50
    assert stamp["server"] is False and 0 <= stamp["arrival"] <= stamp["decided"]
    await client.close()


async def test_a_frame_is_timed_when_it_reaches_the_server_not_when_its_turn_comes(
    close_db_threads, monkeypatch
):
    """A frame that waits behind the previous frame's work (a push, a database call) is
    timed from when it came in: that wait is the server's, not the link's."""
    match, token = await db(
        lambda: services.create_match(
            "karuta", {"mode": "competitive", "memorise_seconds": 0}, "friend"
        )
    )
    await db(lambda: services.join(match.invite_code))
    now = [time.time() * 1000]  # the consumer's wall clock, moved by the test only
    wall = SimpleNamespace(time=lambda: now[0] / 1000, monotonic=time.monotonic)
    monkeypatch.setattr(consumers, "time", wall)
    monkeypatch.setattr(socketbase, "time", wall)  # where a frame is stamped on arrival
    entered, gate = asyncio.Event(), asyncio.Event()

    async def busy(consumer, message):  # the consumer is busy with a frame for 500 ms
        entered.set()
        await gate.wait()
        now[0] += 500

    monkeypatch.setitem(consumers.MatchConsumer.HANDLERS, "start", busy)
    client = Client(match.id, token)
    await client.connect()
    first = await pong(client)
    await client.send({"type": "start"})
    await entered.wait()
    now[0] += 40  # the round trip: this ping arrives 40 ms after that pong left
    await client.send({"type": "ping", "t": 2, "echo": first["now"], "held": 0})
    gate.set()  # it is handled 500 ms later
    assert (await client.until(lambda f: f["type"] == "pong"))["t"] == 2
    stamp = await arrange_and_read_stamp(client, match)
    assert stamp["owd"] == 20 and stamp["jitter"] == 0  # not (40 + 500) / 2
    await client.close()


async def arrange_and_read_stamp(client, match) -> dict:
    """Seat 0 arranges its cards as dealt; the stamp the server logged with that action."""
    _m, state = await db(lambda: load(match.id))
    rows = state["sides"][0]
    await client.send({"type": "act", "action_id": "a1",
                       "action": {"type": "arrange", "rows": rows, "t": -1}})  # fmt: skip
    await client.until(lambda f: f["type"] in ("ack", "error"))
    row = await db(lambda: Action.objects.filter(match_id=match.id).order_by("-seq").first())
    return row.action[gamekit.STAMP]
