"""End to end against the real ASGI server (daphne subprocess) with real WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from websockets.asyncio.client import connect

import gamekit
from matches import services
from matches.models import Action, Match
from tests.matches.webclient import WebClient
from tests.matches.wsbot import Bot, draw_policy, hidden_hand_policy

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def check_log_and_replay(match_id) -> Match:
    match = Match.objects.get(pk=match_id)
    game = gamekit.registry.get(match.game)
    assert match.status == Match.Status.FINISHED
    assert list(match.actions.values_list("seq", flat=True)) == list(range(1, match.seq + 1))
    assert game.dump_state(services.replay(match)) == match.state
    return match


BOZU_FORM = {"players": 2, "semimaru": "monk", "emperor": "noble"}
GAMES = [
    pytest.param("bozu", BOZU_FORM, draw_policy, id="bozu"),
    pytest.param("hiddenhand", {"players": 2, "turns": 20}, hidden_hand_policy, id="hidden-hand"),
]


@pytest.mark.parametrize(("game", "form", "policy"), GAMES)
def test_kill_9_mid_match_then_finish_nothing_lost_or_doubled(asgi_server, game, form, policy):
    red_web, blue_web = WebClient(asgi_server.url), WebClient(asgi_server.url)
    status, created = red_web.post(f"/play/new/{game}/", {**form, "play_mode": "friend"})
    assert status == 200, created
    status, joined = blue_web.post(created["invite"], {})
    assert status == 200 and joined["seat"] == 1
    ws_url = asgi_server.ws_url + created["ws"]
    red = Bot(ws_url, created["token"], policy, "red")
    blue = Bot(ws_url, joined["token"], policy, "blue")
    inflight: dict = {}

    async def first_half():
        await red.open(since=0)
        await blue.open(since=0)
        # Both play until the log reaches 12 lines (join, start, 10 moves), then stop.
        await asyncio.gather(red.play(until_seq=12), blue.play(until_seq=12))
        while red.my_turn() is None and blue.my_turn() is None:
            await red.until(lambda f: f["type"] == "state")
        mover = red if red.my_turn() is not None else blue
        # An action in flight when the server dies: its ack may never come.
        seat = mover.my_turn()
        inflight.update(bot=mover, seat=seat, seq=mover.seq, action=policy(mover.view, seat))
        mover.acted_at.add(mover.seq)
        await mover.send(
            {"type": "act", "action": inflight["action"], "action_id": "in-flight",
             "seat": seat, "seq": mover.seq}
        )  # fmt: skip

    asyncio.run(first_half())
    asgi_server.kill()  # SIGKILL: no goodbye, no flush
    half = Match.objects.get(pk=created["match"]).seq
    assert half >= 12  # join, start and 10 moves at least were committed
    asgi_server.start()

    async def second_half():
        await red.open(since=red.seq)
        await blue.open(since=blue.seq)
        # The retry of the in-flight action is applied once, whatever the crash did.
        mover = inflight["bot"]
        await mover.send(
            {"type": "act", "action": inflight["action"], "action_id": "in-flight",
             "seat": inflight["seat"], "seq": inflight["seq"]}
        )  # fmt: skip
        reply = await mover.until(
            lambda f: (
                f["type"] in ("ack", "error") and f.get("ref", f.get("action_id")) == "in-flight"
            )
        )
        assert reply["type"] == "ack", reply
        await asyncio.gather(red.play(), blue.play())
        await red.close()
        await blue.close()

    asyncio.run(second_half())
    match = check_log_and_replay(created["match"])
    assert Action.objects.filter(match=match, client_action_id="in-flight").count() == 1
    # Every client saw every log entry exactly once and in order, across the restart.
    for bot in (red, blue):
        assert bot.seen_event_seqs() == list(range(1, match.seq + 1)), bot.name
    # Every acknowledged action is in the log once; nothing else a human sent is.
    human_rows = Action.objects.filter(match=match, kind="game", actor="human")
    logged = list(human_rows.values_list("client_action_id", flat=True))
    acked = {f["action_id"] for bot in (red, blue) for f in bot.frames if f["type"] == "ack"}
    assert len(logged) == len(set(logged)) and set(logged) == acked
    assert human_rows.count() == match.actions.filter(kind="game").count()  # no CPU seat


def test_browser_flow_cookie_page_and_socket(asgi_server):
    web = WebClient(asgi_server.url)
    form = {"players": 3, "turns": 6, "play_mode": "cpu", "cpu_level": "hard"}
    status, html = web.post("/play/new/hiddenhand/", form, as_json=False)
    assert status == 200  # followed the redirect to the play page
    config = json.loads(re.search(r'id="match-config"[^>]*>(.*?)</script>', html).group(1))
    assert config["seats"] == [0] and config["protocol"] == 1
    cookie = next(c for c in web.jar if c.name == "seat_token")
    assert cookie.path == f"/play/{config['match']}/"
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert cookie.get_nonstandard_attr("SameSite") == "Lax"
    assert cookie.value not in html  # the token is never printed into the page

    async def play_with_cookie():
        async with connect(
            asgi_server.ws_url + config["ws"],
            origin=asgi_server.url,
            additional_headers={"Cookie": f"seat_token={cookie.value}"},
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1}))
            welcome = json.loads(await ws.recv())
            assert welcome["seats"] == [0]
            frames = []
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
                frames.append(frame)
                if frame["type"] == "state" and frame["match"]["status"] == "finished":
                    return frames
                if frame["type"] == "state" and 0 in frame["match"]["to_act"]:
                    await ws.send(json.dumps({
                        "type": "act", "action": hidden_hand_policy(frame["view"], 0),
                        "action_id": f"c{frame['seq']}", "seq": frame["seq"],
                    }))  # fmt: skip

    asyncio.run(play_with_cookie())
    match = check_log_and_replay(config["match"])
    assert match.actions.filter(actor="cpu").count() == 4  # two CPUs, two turns each

    # Another site's page cannot open the socket (Origin check).
    async def foreign():
        with pytest.raises(Exception):  # noqa: B017 - websockets' rejection type varies
            async with connect(asgi_server.ws_url + config["ws"], origin="http://evil.example"):
                pass

    asyncio.run(foreign())
    log = asgi_server.log()
    assert cookie.value not in log
    # No client address: only daphne's own start-up lines name the listening address.
    client_lines = [
        line
        for line in log.splitlines()
        if "daphne.server" not in line and "daphne.cli" not in line
    ]
    assert not [line for line in client_lines if "127.0.0.1" in line]
