"""What the WebSocket server (daphne, through autobahn) does with a frame the match server
never sees (docs/protocol.md, "Frames the server never reads"): over 1 MiB, or text that is
not UTF-8. It drops the connection without a close frame, so the client sees 1006; the match
is untouched and a new connection works."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def masked_text_frame(payload: bytes) -> bytes:
    """One final text frame, masked as a client must send it (RFC 6455 §5.2)."""
    assert len(payload) < 65536
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big") + mask + body


@pytest.mark.parametrize("kind", ["over_1_mib", "not_utf8"])
def test_a_frame_daphne_refuses_drops_the_connection_and_nothing_else(asgi_server, kind):
    match, token = services.create_match("hiddenhand", {"players": 2, "turns": 5}, "cpu")
    url = f"{asgi_server.ws_url}/play/{match.id}/ws/"
    origin = asgi_server.ws_url.replace("ws://", "http://")

    async def run() -> int | None:
        async with connect(url, origin=origin, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            if kind == "over_1_mib":
                await ws.send(json.dumps({"type": "ping", "t": "x" * (1024 * 1024 + 1)}))
            else:
                ws.transport.write(masked_text_frame(b'{"type": "ping", "t": "\xff\xfe"}'))
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            code = ws.protocol.close_rcvd.code if ws.protocol.close_rcvd else None
        async with connect(url, origin=origin) as again:  # the server and match carry on
            await again.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            assert json.loads(await again.recv())["type"] == "welcome"
        return code

    assert asyncio.run(run()) is None  # no close frame came: the client reports 1006
    assert Match.objects.get(pk=match.id).seq == match.seq
