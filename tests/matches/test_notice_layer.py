"""The Redis channel layer of scale-out (config.notice_layer.RedisNoticeLayer): two layers
stand for two processes sharing one Redis."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from redis.exceptions import ConnectionError as RedisDown

from config.notice_layer import RedisNoticeLayer
from tests.support.server import free_port

pytestmark = [pytest.mark.services, pytest.mark.anyio]


def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        reason = "needs Redis (REDIS_URL)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return url


async def two_processes(prefix: str) -> tuple[RedisNoticeLayer, RedisNoticeLayer]:
    url = redis_url()
    one, two = (RedisNoticeLayer(hosts=[url], prefix=prefix) for _ in range(2))
    await one.flush()
    return one, two


async def test_a_group_message_reaches_every_member_once_in_its_senders_order():
    """Each sender's messages arrive in the order it sent them (as with channels_redis,
    two senders' are not ordered between them: notices carry their seq)."""
    one, two = await two_processes("test-notice-order")
    a, b = await one.new_channel(), await one.new_channel()
    c = await two.new_channel()
    for layer, channel in ((one, a), (one, b), (two, c)):
        await layer.group_add("match", channel)
    readers = [asyncio.ensure_future(layer.receive(ch)) for layer, ch in ((one, a), (two, c))]
    await asyncio.sleep(0)  # both layers are reading on this loop now
    for n in range(20):  # from both "processes"
        await (one if n % 2 else two).group_send("match", {"type": "notice", "n": n, "x": None})
    got = {ch: [] for ch in (a, b, c)}
    first = await asyncio.gather(*readers)
    got[a].append(first[0])
    got[c].append(first[1])
    for layer, channel in ((one, a), (one, b), (two, c)):
        while len(got[channel]) < 20:
            got[channel].append(await asyncio.wait_for(layer.receive(channel), 5))
    for channel in (a, b, c):
        numbers = [m["n"] for m in got[channel]]
        assert sorted(numbers) == list(range(20)), channel
        assert [n for n in numbers if n % 2] == list(range(1, 20, 2)), channel
        assert [n for n in numbers if not n % 2] == list(range(0, 20, 2)), channel
        assert all(m == {"type": "notice", "n": m["n"], "x": None} for m in got[channel])
    await one.group_send("match", {"type": "notice", "n": 99})  # nothing was delivered twice
    assert (await asyncio.wait_for(two.receive(c), 5))["n"] == 99
    assert (await asyncio.wait_for(one.receive(a), 5))["n"] == 99
    await one.flush()
    await two.close_pools()


async def test_several_groups_told_in_one_round_trip_reach_every_member_in_order():
    """`group_send_many` (a group commit's notices): each group's members, here and in the
    other process, get their group's messages once, in the order given; a group with no
    member gets nothing, and the other groups still get theirs."""
    one, two = await two_processes("test-notice-many")
    here, there = await one.new_channel(), await two.new_channel()
    both = await one.new_channel()
    await one.group_add("g1", here)  # only this process
    await two.group_add("g2", there)  # only the other
    await one.group_add("g3", both)
    await two.group_add("g3", there)
    calls = []
    real = one.connection(0).evalsha

    async def counted(*args):
        calls.append(args[0])
        return await real(*args)

    one.connection(0).evalsha = counted
    await one.group_send_many(
        [
            ("g1", {"type": "n", "n": 1}),
            ("g2", {"type": "n", "n": 2}),
            ("empty", {"type": "n", "n": 0}),
            ("g3", {"type": "n", "n": 3}),
            ("g2", {"type": "n", "n": 4}),
        ]
    )
    assert len(calls) == 1  # one round trip for the five
    assert (await asyncio.wait_for(one.receive(here), 5))["n"] == 1
    assert (await asyncio.wait_for(one.receive(both), 5))["n"] == 3
    heard = [(await asyncio.wait_for(two.receive(there), 5))["n"] for _ in range(3)]
    assert heard == [2, 3, 4]
    assert not one.buffers[here] and not one.buffers[both] and not two.buffers[there]
    await one.group_send("g1", {"type": "n", "n": 5})  # nothing was delivered twice
    assert (await asyncio.wait_for(one.receive(here), 5))["n"] == 5
    assert not two.buffers[there]
    await one.flush()
    await two.close_pools()


async def test_a_discarded_or_closed_channel_gets_nothing_more():
    one, two = await two_processes("test-notice-discard")
    kept, dropped, closed = [await one.new_channel() for _ in range(3)]
    for channel in (kept, dropped, closed):
        await one.group_add("match", channel)
    reader = asyncio.ensure_future(one.receive(closed))
    await asyncio.sleep(0)
    reader.cancel()  # what Channels does when the consumer's socket closes
    with pytest.raises(asyncio.CancelledError):
        await reader
    await one.group_discard("match", dropped)
    # One from the other process (through Redis), then one from this process (delivered
    # here at once): each is received before the next is sent, since the layer promises no
    # order between a remote notice still in Redis and a local one sent after it.
    received = []
    for sender, n in ((two, 1), (one, 2)):
        await sender.group_send("match", {"type": "notice", "n": n})
        received.append((await asyncio.wait_for(one.receive(kept), 5))["n"])
    assert received == [1, 2]
    assert dropped in one.buffers and not one.buffers[dropped]
    assert closed not in one.buffers and not one.local_groups["match"] - {kept}
    await one.flush()
    await two.close_pools()


async def test_a_stalled_event_loop_is_not_taken_for_a_hung_redis():
    """A busy server's event loop that stalls past a read's deadline (Redis answered in time;
    the loop was too late to read it) is not an outage: the receivers keep receiving. Taken
    for one, every socket of the process fell back to following the database at once (724
    sockets in half a second in a 200-match bench run), a load that stalled the loop more."""
    one, two = await two_processes("stall.")
    channel = await one.new_channel()
    waiting = asyncio.ensure_future(one.receive(channel))
    await asyncio.sleep(0.1)  # the reader's blocking pop is on the wire
    time.sleep(one.answer_within_s + 0.3)  # the loop stalls past the pop's deadline
    await two.send(channel, {"type": "x", "n": 1})
    assert (await asyncio.wait_for(waiting, 5))["n"] == 1
    await one.flush()
    await two.close_pools()


async def test_receivers_hear_that_redis_is_unreachable():
    """Consumers learn of an outage from `receive` raising (MatchConsumer._layer_lost)."""
    redis_url()
    layer = RedisNoticeLayer(hosts=[f"redis://127.0.0.1:{free_port()}/0"])
    channel = await layer.new_channel()
    with pytest.raises(RedisDown):
        await asyncio.wait_for(layer.receive(channel), 5)
    with pytest.raises(RedisDown):  # and again, each time it is asked
        await asyncio.wait_for(layer.receive(channel), 5)


# --- upstream: what RedisNoticeLayer relies on in channels_redis beyond its public API ------
# These fail when a channels_redis upgrade changes it; then config/notice_layer.py (its Lua
# script reads the group's sorted set) must be checked again.


async def test_upstream_keeps_a_groups_members_in_a_sorted_set_scored_by_joining_time():
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url()], prefix="test-upstream-groups")
    await layer.flush()
    channel = await layer.new_channel()
    before = time.time()
    await layer.group_add("match", channel)
    connection = layer.connection(0)
    key = layer._group_key("match")
    assert (await connection.type(key)) in (b"zset", "zset")
    members = await connection.zrange(key, 0, -1, withscores=True)
    assert [(m.decode() if isinstance(m, bytes) else m) for m, _ in members] == [channel]
    assert before - 1 <= members[0][1] <= before + 5  # seconds since the epoch
    assert "!" in channel and layer.non_local_name(channel) == channel.split("!")[0] + "!"
    assert channel.startswith(f"specific.{layer.client_prefix}!")
    message = {"type": "match.notice", "seq": 3, "move": {"a": [1, None]}}
    assert layer.deserialize(layer.serialize(message)) == message
    await layer.flush()
    await layer.close_pools()
