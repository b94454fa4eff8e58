"""Notices racing a socket's close, on the real server: a move's notice reaches sockets
whose client has just gone (the connection dropped, no close handshake). The server must
shrug: no traceback, no error in its log, and the match goes on for the others."""

from __future__ import annotations

import asyncio

import pytest

from matches import services
from matches.models import Match
from tests.matches.wsbot import Bot

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROUNDS = 12


def drop(bot: Bot) -> None:
    """The client vanishes: the TCP connection is cut, no WebSocket close frame."""
    bot.ws.transport.abort()


def test_notices_racing_a_socket_close_log_no_traceback(asgi_server):
    match, red_token = services.create_match("hiddenhand", {"players": 2, "turns": 60}, "friend")
    _m, _seat, blue_token = services.join(match.invite_code)
    ws_url = f"{asgi_server.ws_url}/play/{match.id}/ws/"

    async def run() -> int:
        red = Bot(ws_url, red_token, name="red")
        await red.open()
        for n in range(ROUNDS):
            blue = Bot(ws_url, blue_token, name=f"blue{n}")
            watchers = [Bot(ws_url, None, name=f"watcher{n}-{i}") for i in range(3)]
            for bot in (blue, *watchers):
                await bot.open()
            while red.my_turn() is None:
                await red.until(lambda f: f["type"] in ("state", "room"))
            # Red's move and its notice race the watchers' connections being cut: one
            # before the move reaches the server, one as its notice goes out (red's ack
            # follows the notice), one once its frame has arrived.
            acting = asyncio.ensure_future(red.act(0, f"red-{n}"))
            await asyncio.sleep(0)
            drop(watchers[0])
            assert (await acting)["type"] == "ack"
            drop(watchers[1])
            await watchers[2].until(lambda f: f["type"] == "state")
            drop(watchers[2])
            # … and blue plays, then vanishes while the next notices are on their way.
            while blue.my_turn() is None:
                await blue.until(lambda f: f["type"] == "state")
            assert (await blue.act(1, f"blue-{n}"))["type"] == "ack"
            drop(blue)
        await red.close()
        return red.seq

    seq = asyncio.run(run())
    asgi_server.stop()  # the log is complete once the server has exited
    log = asgi_server.log()
    assert "Traceback" not in log, log
    assert '"level": "ERROR"' not in log, log
    match = Match.objects.get(pk=match.id)
    assert match.seq >= seq and match.actions.filter(client_action_id="blue-11").count() == 1
