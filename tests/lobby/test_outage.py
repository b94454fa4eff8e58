"""A Redis outage under the lobby (issue 39): sockets stay open, nobody loses their place,
the page is told pairing is paused, and pairing resumes when Redis is back, each person
paired once. In process (the real ASGI stack through WebsocketCommunicator), with the
site's Redis channel layer and lobby cache pointed at a Redis of the test's own, which the
test kills and starts again (empty, as after a crash)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from lobby import ticker
from lobby.models import Pairing, Seeker
from tests.lobby.test_socket import Socket, browser
from tests.support.redis_server import RedisServer

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_lobby_threads"),
    pytest.mark.timeout(60),
]
db = database_sync_to_async
POOL = "karuta-competitive-20-casual"


@pytest.fixture
def own_redis(settings):
    if not RedisServer.available():
        pytest.fail("redis-server is not installed")
    server = RedisServer()
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.notice_layer.RedisNoticeLayer",
            "CONFIG": {"hosts": [server.url()], "capacity": 1000, "group_expiry": 3600},
        }
    }
    settings.CACHES = {
        **settings.CACHES,
        "lobby": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url(1),
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        },
    }
    yield server
    server.stop()


async def until(socket: Socket, test, timeout: float = 15) -> dict:
    while True:
        frame = json.loads(await socket.comm.receive_from(timeout=timeout))
        socket.texts.append(json.dumps(frame))
        if test(frame):
            return frame


async def test_a_redis_outage_pauses_pairing_keeps_everyone_and_resumes(own_redis, monkeypatch):
    from lobby import consumers

    # The same order of things, faster: ticks, retries, and the wait before pairing resumes
    # (still longer than a socket's retry).
    monkeypatch.setattr(ticker, "TICK_SECONDS", 0.25)
    monkeypatch.setattr(ticker, "LISTEN_RETRY_SECONDS", 0.25)
    monkeypatch.setattr(consumers, "LAYER_RETRY_SECONDS", 0.25)
    monkeypatch.setattr(ticker, "RESUME_AFTER_SECONDS", 1.0)
    alice, bob = await db(browser)(), await db(browser)()
    a, b = Socket(alice), Socket(bob)
    await a.open()
    await b.open()

    own_redis.kill()
    # Both press quick pairing while Redis is down: the places are taken (the database is
    # up), the board says pairing is paused, and no wave pairs them.
    for socket in (a, b):
        await socket.send({"type": "join", "pool": POOL})
        await until(socket, lambda f: f["type"] == "you" and len(f["places"]) == 1)
    for socket in (a, b):
        await until(socket, lambda f: f["type"] == "board" and f["paused"])
    _changed, paused = await db(ticker.tick)()
    assert paused
    # An open seek can still be made (its per-person count lives in Redis: not counted).
    answer = await db(alice.post)("/en/lobby/seek/", {"game": "bozu", "players": "3"})
    assert answer.status_code == 302
    await until(b, lambda f: f["type"] == "board" and len(f["seeks"]) == 1)
    # A seat's ticket cannot be read meanwhile: the page says so (not a server error).
    answer = await db(alice.post)("/en/lobby/seat/some-ticket/")
    assert answer.status_code == 503 and "Pairing is paused" in answer.content.decode()
    assert await db(Seeker.objects.filter(status="waiting", kind="pool").count)() == 2
    assert await db(Pairing.objects.count)() == 0

    own_redis.start()  # empty, as after a crash
    # Pairing resumes: each is told their seat once, the board is no longer paused.
    gos = [(await socket.next("paired", timeout=20))["go"] for socket in (a, b)]
    for socket in (a, b):
        await until(socket, lambda f: f["type"] == "board" and not f["paused"])
    assert await db(Pairing.objects.count)() == 1
    assert await db(Seeker.objects.filter(status="paired", kind="pool").count)() == 2
    places = []
    for client, go in zip((alice, bob), gos, strict=True):
        answer = await db(client.post)(go)
        assert answer.status_code == 302 and answer["Location"].startswith("/play/")
        places.append(answer["Location"])
    assert places[0] == places[1]
    await a.comm.disconnect()
    await b.comm.disconnect()


def test_the_page_says_pairing_is_paused_in_three_languages():
    for prefix, words in (("", "組み合わせを一時停止"), ("/en", "Pairing is paused"),
                          ("/zh-hans", "配对暂时停止")):  # fmt: skip
        assert words in Client().get(f"{prefix}/lobby/").content.decode()
