"""matches.socketbase replaces Channels' `AsyncConsumer.__call__` and `dispatch` (private
code, not extension points). These tests fail when Channels changes either original, or
when what the replacement depends on changes: then socketbase.py must be compared with the
new code again, and the pinned digests below updated."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import time

import pytest
from channels import consumer as upstream

from matches.socketbase import RECEIVED, SocketBase

# Channels 4.3's code, as socketbase.py copies it (with the changes its docstrings name).
PINNED = {
    "__call__": "e52238720872dbc3f854519bc971aa7eb41553e63c8729081549ce42465ee419",
    "dispatch": "39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_channels_own_code_is_the_one_socketbase_replaces(name):
    source = inspect.getsource(getattr(upstream.AsyncConsumer, name))
    assert hashlib.sha256(source.encode()).hexdigest() == PINNED[name], (
        f"Channels' AsyncConsumer.{name} changed: compare matches/socketbase.py with it"
    )


def test_channels_dispatch_still_closes_connections_before_each_message(monkeypatch):
    """What socketbase's dispatch leaves out (so its reason still holds)."""
    closed: list[int] = []

    async def close() -> None:
        closed.append(1)

    monkeypatch.setattr(upstream, "aclose_old_connections", close)

    class Plain(upstream.AsyncConsumer):
        async def test_message(self, message):
            pass

    class Ours(SocketBase):
        async def test_message(self, message):
            pass

    asyncio.run(Plain().dispatch({"type": "test.message"}))
    asyncio.run(Ours().dispatch({"type": "test.message"}))
    assert closed == [1]


def test_frames_are_stamped_as_they_arrive_and_the_channel_receive_is_the_subclasses():
    """In-memory: a consumer busy with one frame still stamps the next on arrival."""
    from channels.layers import InMemoryChannelLayer, channel_layers

    handled: list[dict] = []
    asked: list[int] = []

    class Slow(SocketBase):
        async def websocket_connect(self, message):
            handled.append(message)
            await asyncio.sleep(0.2)  # busy: the frame behind it waits here

        async def websocket_receive(self, message):
            handled.append(message)

        async def channel_receive_surviving(self):
            asked.append(1)
            return await super().channel_receive_surviving()

    async def scenario():
        channel_layers.set("default", InMemoryChannelLayer())
        queue: asyncio.Queue = asyncio.Queue()
        await queue.put({"type": "websocket.connect"})
        await queue.put({"type": "websocket.receive", "text": "x"})
        sent_at = time.time() * 1000
        task = asyncio.ensure_future(Slow()({"type": "websocket"}, queue.get, queue.put))
        while len(handled) < 2:
            await asyncio.sleep(0.01)
        task.cancel()
        return sent_at

    try:
        sent_at = asyncio.run(scenario())
    finally:
        channel_layers.backends.pop("default", None)
    assert asked, "the subclass's channel receive was not used"
    second = handled[1]
    assert second[RECEIVED] - sent_at < 150  # stamped on arrival, not after the 200 ms wait
