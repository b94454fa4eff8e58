"""The embedded channel layer sweeps expired entries at most once a second, and still does."""

import asyncio

import pytest

from config.embedded_layer import EmbeddedChannelLayer


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr("config.embedded_layer.time.monotonic", lambda: now[0])
    return now


def test_messages_and_groups_work_as_channels_layer():
    async def scenario():
        layer = EmbeddedChannelLayer()
        a = await layer.new_channel()
        b = await layer.new_channel()
        await layer.group_add("match.x", a)
        await layer.group_add("match.x", b)
        await layer.group_send("match.x", {"type": "match.notice", "seq": 3})
        assert await layer.receive(a) == {"type": "match.notice", "seq": 3}
        assert await layer.receive(b) == {"type": "match.notice", "seq": 3}

    asyncio.run(scenario())


def test_expired_messages_are_still_swept_but_not_on_every_receive(clock):
    async def scenario():
        layer = EmbeddedChannelLayer(expiry=1)
        stale = await layer.new_channel()
        live = await layer.new_channel()
        await layer.group_add("match.x", stale)
        await layer.send(live, {"type": "one"})
        assert await layer.receive(live) == {"type": "one"}  # sweeps now (nothing expired)
        await layer.send(stale, {"type": "never read"})
        # Let the message expire in the layer's wall clock; the sweep clock has not moved.
        for _channel, queue in layer.channels.items():
            queue._queue[0] = (0, queue._queue[0][1])
        await layer.send(live, {"type": "two"})
        assert await layer.receive(live) == {"type": "two"}
        assert stale in layer.channels  # within the second: no sweep
        clock[0] += 1.5
        await layer.send(live, {"type": "three"})
        assert await layer.receive(live) == {"type": "three"}
        assert stale not in layer.channels  # swept, and dropped from its group
        assert stale not in layer.groups.get("match.x", {})

    asyncio.run(scenario())


def test_a_group_message_is_copied_once_from_the_sender_and_a_full_member_is_skipped():
    async def scenario():
        layer = EmbeddedChannelLayer(capacity=1)
        full, a, b = [await layer.new_channel() for _ in range(3)]
        for channel in (full, a, b):
            await layer.group_add("match.x", channel)
        await layer.send(full, {"type": "waiting"})  # its one place is taken
        message = {"type": "match.notice", "move": {"events": [1]}}
        await layer.group_send("match.x", message)
        message["move"]["events"].append(2)  # the sender reuses its dict: receivers unaffected
        got_a, got_b = await layer.receive(a), await layer.receive(b)
        assert got_a == got_b == {"type": "match.notice", "move": {"events": [1]}}
        assert got_a is got_b  # one copy for the group, not one per member
        assert await layer.receive(full) == {"type": "waiting"}
        assert layer.channels.get(full) is None  # the notice did not get in

    asyncio.run(scenario())


# --- upstream: what EmbeddedChannelLayer relies on in Channels' InMemoryChannelLayer --------
# These fail when a Channels upgrade changes it; then config/embedded_layer.py must be checked.


def test_upstream_stores_expiry_message_pairs_and_group_join_times():
    from channels.layers import InMemoryChannelLayer

    async def scenario():
        layer = InMemoryChannelLayer(expiry=60)
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "x"})
        queue = layer.channels[channel]
        assert isinstance(queue, asyncio.Queue)
        expires, message = queue.get_nowait()
        assert message == {"type": "x"} and expires > 0
        await layer.group_add("match.x", channel)
        assert set(layer.groups["match.x"]) == {channel}

    asyncio.run(scenario())


def test_upstream_sweeps_on_every_receive_and_group_send(monkeypatch):
    """The override exists because Channels sweeps everything on each call (O(sockets))."""
    from channels.layers import InMemoryChannelLayer

    calls = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: calls.append(1))

    async def scenario():
        layer = InMemoryChannelLayer()
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "x"})
        await layer.receive(channel)
        received = len(calls)
        await layer.group_send("match.x", {"type": "y"})
        return received, len(calls)

    received, total = asyncio.run(scenario())
    assert received >= 1 and total > received
