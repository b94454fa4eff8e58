"""The lobby page and socket through the real ASGI stack (WebsocketCommunicator), on the
test database: the board, refusals, a seek taken in one click, the seat hand-off, and what
lobby frames never carry."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from lobby.models import Seeker
from matches.cookies import SEAT_COOKIE

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_lobby_threads"),
]
db = database_sync_to_async


def application():
    from config.asgi import application as app

    return app


def browser() -> Client:
    client = Client()
    assert client.get("/en/lobby/").status_code == 200  # gives the browser its guest key
    return client


class Socket:
    def __init__(self, client: Client, lang: str = "en"):
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        self.comm = WebsocketCommunicator(
            application(),
            f"/lobby/ws/?lang={lang}",
            headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
        )
        self.texts: list[str] = []

    async def open(self) -> dict:
        connected, _ = await self.comm.connect(timeout=10)
        assert connected
        return await self.next("board")

    async def send(self, frame: dict) -> None:
        await self.comm.send_to(text_data=json.dumps(frame))

    async def next(self, kind: str, timeout: float = 10) -> dict:
        while True:
            text = await self.comm.receive_from(timeout=timeout)
            self.texts.append(text)
            frame = json.loads(text)
            if frame["type"] == kind:
                return frame


async def test_a_seek_is_listed_taken_in_one_click_and_each_seat_handed_over_once():
    alice, bob = await db(browser)(), await db(browser)()
    a, b = Socket(alice), Socket(bob)
    await a.open()
    await b.open()

    # A guest is refused a rated pool, in the page's language.
    await a.send({"type": "join", "pool": "karuta-competitive-standard-rated"})
    refused = await a.next("error")
    assert refused["code"] == "sign_in_to_rate" and "Sign in" in refused["text"]
    await a.send({"type": "join", "pool": 12})
    assert (await a.next("error"))["code"] == "no_such_pool"
    await a.send({"type": "nonsense"})
    assert (await a.next("error"))["code"] == "bad_frame"

    # Alice creates an open seek from karuta's own form; Bob's board lists it (the view
    # announces the change).
    answer = await db(alice.post)("/en/lobby/seek/", {"game": "karuta", "mode": "competitive"})
    assert answer.status_code == 302
    # (A board told before the seek, coalesced and sent late, may come first: wait for it.)
    board = await b.next("board")
    while not board["seeks"]:
        board = await b.next("board")
    [seek] = board["seeks"]
    assert seek["game"] == "karuta" and seek["mode"] == "competitive" and seek["handle"] is None

    await b.send({"type": "take", "seek": seek["id"]})
    go_a, go_b = (await a.next("paired"))["go"], (await b.next("paired"))["go"]
    assert go_a != go_b

    # Each page posts its ticket: the seat cookie is set for that match only, and once.
    seat = await db(alice.post)(go_a)
    assert seat.status_code == 302 and seat["Location"].startswith("/play/")
    token = seat.cookies[SEAT_COOKIE].value
    assert seat.cookies[SEAT_COOKIE]["path"] == seat["Location"]
    assert (await db(alice.post)(go_a)).status_code == 410  # used
    assert (await db(alice.post)(go_b)).status_code == 410  # not hers
    bob_seat = await db(bob.post)(go_b)
    assert bob_seat["Location"] == seat["Location"]

    # Nothing a lobby frame carried is a seat token, a person's key or an address.
    keys = await db(lambda: list(Seeker.objects.values_list("person", flat=True)))()
    for text in a.texts + b.texts:
        assert token not in text and bob_seat.cookies[SEAT_COOKIE].value not in text
        assert not any(key in text for key in keys)
        assert "127.0.0.1" not in text and "invite" not in text
    await a.comm.disconnect()
    await b.comm.disconnect()


async def test_a_seek_goes_when_its_owner_leaves():
    alice, bob = await db(browser)(), await db(browser)()
    a, b = Socket(alice), Socket(bob)
    await a.open()
    await b.open()
    await db(alice.post)("/en/lobby/seek/", {"game": "bozu", "players": "2"})
    assert len((await b.next("board"))["seeks"]) == 1
    await a.comm.disconnect(timeout=10)
    assert (await b.next("board"))["seeks"] == []
    await b.comm.disconnect()


def test_a_refused_setting_comes_back_as_the_forms_own_error_and_seeks_are_limited():
    client = browser()
    answer = client.post("/en/lobby/seek/", {"game": "karuta", "pace": "warp"})
    assert answer.status_code == 400
    assert "Choose one of the listed reading paces." in answer.content.decode()
    for _ in range(4):  # the refused attempt counted too: five a minute
        assert client.post("/en/lobby/seek/", {"game": "bozu"}).status_code == 302
    limited = client.post("/en/lobby/seek/", {"game": "bozu"})
    assert limited.status_code == 429
    assert "please wait a minute" in limited.content.decode()


@pytest.mark.parametrize(
    ("prefix", "words"), [("", "だれかと対戦"), ("/en", "Play someone"), ("/zh-hans", "与他人对战")]
)
def test_the_lobby_and_its_entries_in_three_languages(prefix, words):
    client = Client()
    page = client.get(f"{prefix}/lobby/").content.decode()
    assert words in page and 'data-pool="karuta-competitive-standard-rated"' in page
    assert words in client.get(f"{prefix}/").content.decode()
    assert "data-play-someone" in client.get(f"{prefix}/karuta/").content.decode()


async def test_a_lone_seeker_is_offered_a_cpu_and_keeps_the_place(settings):
    settings.LOBBY_CPU_OFFER_SECONDS = 0.2
    alice = await db(browser)()
    a = Socket(alice)
    await a.open()
    await a.send({"type": "join", "pool": "karuta-competitive-20-casual"})
    offer = await a.next("cpu_offer")
    assert offer["pool"] == "karuta-competitive-20-casual"
    answer = await db(alice.post)("/en/lobby/cpu/", {"pool": offer["pool"]})
    assert answer.status_code == 302 and SEAT_COOKIE in answer.cookies
    from matches.models import Match

    match = await db(Match.objects.get)(id=answer["Location"].split("/")[2])
    assert match.mode == "cpu" and not match.rated
    assert await db(Seeker.objects.filter(status="waiting").count)() == 1  # still in the pool
    await asyncio.sleep(0)
    await a.comm.disconnect()


async def test_a_change_is_one_layer_message_and_one_build_for_every_socket_of_a_process(
    monkeypatch, settings
):
    """The board's fan-out (board.Board): the sockets are not members of the board's group
    (the process's one listener is), a change is built once and the same text reaches every
    socket, and a burst of changes is coalesced into a few boards, the last one current.
    On the in-memory layer, whose groups the test can read (with REDIS_URL too)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.embedded_layer.EmbeddedChannelLayer"}}
    from channels.layers import get_channel_layer

    from lobby import board, ticker

    clients = [await db(browser)() for _ in range(6)]
    sockets = [Socket(client) for client in clients]
    for socket in sockets:
        await socket.open()
    layer = get_channel_layer()
    for _ in range(50):  # the listener joins the group as the first socket starts it
        if layer.groups.get(ticker.BOARD_GROUP):
            break
        await asyncio.sleep(0.02)
    assert len(layer.groups[ticker.BOARD_GROUP]) == 1
    for _ in range(50):  # the listener's own first board (on joining) has gone out
        if board.BOARD.fanning is not None and board.BOARD.fanning.done():
            break
        await asyncio.sleep(0.02)

    builds = []
    real_build = board.build
    monkeypatch.setattr(board, "build", lambda: builds.append(1) or real_build())
    await db(clients[0].post)("/en/lobby/seek/", {"game": "bozu"})
    await ticker.announce_change()
    texts = []
    for socket in sockets:
        while len((frame := await socket.next("board"))["seeks"]) != 1:
            pass  # the listener's first board, sent before the change
        texts.append(socket.texts[-1])
    assert len(set(texts)) == 1  # the same text
    assert len(builds) == 1

    # Ten changes in a burst: each socket is sent far fewer than ten boards, and the last
    # one it gets shows all ten seeks.
    builds.clear()
    for client in clients[1:]:
        await db(client.post)("/en/lobby/seek/", {"game": "bozu"})
        for _ in range(2):
            await ticker.announce_change()
    counts = []
    for socket in sockets:
        seen = 0
        while True:
            frame = await socket.next("board")
            seen += 1
            if len(frame["seeks"]) == 6:
                break
        counts.append(seen)
    assert len(builds) <= 3 and max(counts) <= 3, (builds, counts)
    for socket in sockets:
        await socket.comm.disconnect()


async def test_a_table_seek_is_taken_seat_by_seat_and_starts_when_full():
    alice, bob, carol = [await db(browser)() for _ in range(3)]
    a, b, c = Socket(alice), Socket(bob), Socket(carol)
    for socket in (a, b, c):
        await socket.open()
    await db(alice.post)("/en/lobby/seek/", {"game": "bakudan", "players": "3"})
    [seek] = (await b.next("board"))["seeks"]
    assert seek["seats"] == 3 and seek["seated"] == 1
    await b.send({"type": "take", "seek": seek["id"]})
    places = None
    while not places:
        places = (await b.next("you"))["places"]
    assert places[0]["seek"] == seek["id"] and places[0]["seated"] and places[0]["pool"] is None
    while (await c.next("board"))["seeks"][0]["seated"] != 2:
        pass
    await c.send({"type": "take", "seek": seek["id"]})
    gos = {(await socket.next("paired"))["go"] for socket in (a, b, c)}
    assert len(gos) == 3
    for socket in (a, b, c):
        await socket.comm.disconnect()
