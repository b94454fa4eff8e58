"""The scale-out channel layer: channels_redis' `RedisChannelLayer` with one round trip to tell
a group and one to read a batch (RedisNoticeLayer below says why).

What it relies on in channels_redis beyond the public layer API (the group's sorted set at
`_group_key(group)`, scored by the time of joining; `non_local_name`, `client_prefix`,
`serialize`/`deserialize`, `connection(0)`) is pinned by tests/matches/test_notice_layer.py's
"upstream" tests, which fail when an upgrade changes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from typing import Any

from channels_redis.core import RedisChannelLayer
from django.core.exceptions import ImproperlyConfigured
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# One script for one or more group messages (`group_send_many`: a group commit's notices in
# one round trip): for each, drop its group's expired members, then push the message once onto
# each other process's inbox (a Redis list), prefixed with that process's channels in the
# group. KEYS: the groups; ARGV: now, group expiry, inbox expiry, capacity, prefix, then a
# message and the inbox to skip (this process's, if it delivered the group itself) per key.
_GROUP_SEND = """
local now = tonumber(ARGV[1])
local expiry, capacity, prefix = ARGV[3], tonumber(ARGV[4]), ARGV[5]
local full = 0
for k, group in ipairs(KEYS) do
  local message, skip = ARGV[4 + 2 * k], ARGV[5 + 2 * k]
  redis.call('ZREMRANGEBYSCORE', group, 0, now - tonumber(ARGV[2]))
  local members = redis.call('ZRANGE', group, 0, -1)
  local channels, order = {}, {}
  for _, channel in ipairs(members) do
    local bang = string.find(channel, '!', 1, true)
    if bang then
      local inbox = prefix .. string.sub(channel, 1, bang)
      if inbox ~= skip then
        if channels[inbox] == nil then
          channels[inbox] = {}
          order[#order + 1] = inbox
        end
        table.insert(channels[inbox], channel)
      end
    end
  end
  for _, inbox in ipairs(order) do
    if redis.call('LLEN', inbox) < capacity then
      redis.call('RPUSH', inbox, table.concat(channels[inbox], ' ') .. '\\n' .. message)
      redis.call('EXPIRE', inbox, expiry)
    else
      full = full + 1
    end
  end
end
return full
"""
_GROUP_SEND_SHA = hashlib.sha1(_GROUP_SEND.encode()).hexdigest()


class RedisNoticeLayer(RedisChannelLayer):
    """channels_redis' layer with a cheaper path for what the site sends: group messages to
    process-specific channels (every socket's).

    channels_redis reads a process's messages one at a time, under one lock, with three
    or four Redis round trips each (a clean-up script, BZPOPMIN, a backup ZADD, a ZPOPMIN
    that the next read waits for), and tells a group in four. With two processes at 200
    matches that serial read was the bottleneck: a move's frames reached the other
    process's seats 1.5–1.8 s late while its ack took 30 ms. Here:
    - telling a group is one script (one round trip) that appends the message once to
      each other process's inbox, a Redis list; `group_send_many` tells several groups in
      one;
    - each process has one reader that pops its inbox in batches (LPOP with a count, or
      BLPOP when it is empty) and hands every message to its channels' buffers;
    - the group's channels in this process get the message straight away, without Redis
      (the layer mirrors the memberships its own channels made).
    When Redis is unreachable, every waiting `receive` raises, as with channels_redis, so
    consumers notice (matches/consumers.py). Messages stay in Redis while a process is
    busy; a cancelled read can lose a batch only at shutdown (notices are hints). Group
    memberships and their expiry are channels_redis' own. One Redis host only; named
    (non-process) channels are not supported.
    """

    batch = 500  # messages popped in one round trip
    inbox_capacity = 20000  # messages waiting for one process before new ones are dropped
    # A Redis that stops answering (paused, a dead link: no connection refused) is an outage
    # after `answer_within_s` (the reader: plus `confirm_within_s`): every call raises then
    # instead of waiting for ever (redis-py's default), so sockets notice and follow the
    # database (matches/consumers.py, `_layer_lost`). The reader's BLPOP waits `read_wait_s`
    # on an idle inbox, below that timeout.
    answer_within_s = 1.0
    read_wait_s = 0.5
    # A read that timed out is an outage only if a PING then goes unanswered this long too:
    # a hung Redis is noticed within answer_within_s + confirm_within_s.
    confirm_within_s = 0.3

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.ring_size != 1:
            raise ImproperlyConfigured("RedisNoticeLayer takes one Redis host")
        limits = {"socket_timeout": self.answer_within_s}
        limits["socket_connect_timeout"] = self.answer_within_s
        self.hosts = [{**limits, **host} for host in self.hosts]
        self.inbox = f"{self.prefix}specific.{self.client_prefix}!"
        self.buffers: dict[str, deque] = {}  # this process's channels -> messages not read yet
        self.waiters: dict[str, asyncio.Future] = {}
        self.local_groups: dict[str, set[str]] = {}  # group -> this process's channels in it
        self.memberships: dict[str, set[str]] = {}  # channel -> its groups
        self.reader: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # where the buffers are read

    async def new_channel(self, prefix: str = "specific") -> str:
        # Every channel of this process shares its one inbox, whatever prefix was asked for
        # (the health check asks for "healthz."): the name only has to be unique.
        channel = await super().new_channel("specific")
        self.buffers[channel] = deque()
        return channel

    def _own(self, channel: str) -> bool:
        return "!" in channel and self.non_local_name(channel) == self.inbox[len(self.prefix) :]

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if "!" not in channel:
            raise NotImplementedError("RedisNoticeLayer carries process-specific channels only")
        inbox = self.prefix + self.non_local_name(channel)
        raw = channel.encode() + b"\n" + self.serialize(message)
        # One round trip, not two (the owner path sends two per forwarded act: issue 40).
        pipe = self.connection(0).pipeline(transaction=False)
        pipe.rpush(inbox, raw)
        pipe.expire(inbox, int(self.expiry))
        await pipe.execute()

    async def receive(self, channel: str) -> dict[str, Any]:
        if not self._own(channel):
            raise NotImplementedError("RedisNoticeLayer receives this process's channels only")
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self.loop = loop  # a new event loop (tests): the old one's reader is gone
            self.reader = None
        buffer = self.buffers.setdefault(channel, deque())
        while not buffer:
            if self.reader is None or self.reader.done():
                self.reader = loop.create_task(self._read())
            waiter = self.waiters.get(channel)
            if waiter is None or waiter.done():
                waiter = self.waiters[channel] = loop.create_future()
            try:
                await waiter
            except asyncio.CancelledError:
                self._close(channel)  # the consumer is gone (Channels cancels its receive)
                raise
            finally:
                if self.waiters.get(channel) is waiter:
                    del self.waiters[channel]
        return buffer.popleft()

    def _close(self, channel: str) -> None:
        self.buffers.pop(channel, None)
        self.waiters.pop(channel, None)
        for group in self.memberships.pop(channel, ()):
            members = self.local_groups.get(group)
            if members is not None:
                members.discard(channel)
                if not members:
                    del self.local_groups[group]

    def _deliver(self, channels: list[str], message: dict[str, Any]) -> None:
        for channel in channels:
            buffer = self.buffers.get(channel)
            if buffer is None:
                continue  # closed meanwhile
            if len(buffer) >= self.capacity:
                log.warning("a channel's buffer is full: a message was dropped")
                continue
            buffer.append(message)
            waiter = self.waiters.get(channel)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

    async def _read(self) -> None:
        """This process's one reader: batches from its inbox to its channels' buffers."""
        connection = self.connection(0)
        while True:
            try:
                items = await connection.lpop(self.inbox, self.batch)
                if not items:
                    popped = await connection.blpop([self.inbox], timeout=self.read_wait_s)
                    if popped is None:
                        if not self.waiters:
                            return  # nobody is listening: the next receive starts a reader
                        continue
                    items = [popped[1]]
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if await self._answers_now(exc, connection):
                    continue  # the loop was late, not Redis: read on
                # Redis is unreachable: every waiting receive raises, as channels_redis'
                # would.
                for waiter in list(self.waiters.values()):
                    if not waiter.done():
                        waiter.set_exception(exc)
                return
            for raw in items:
                head, _, body = raw.partition(b"\n")
                self._deliver(head.decode().split(" "), self.deserialize(body))

    async def _answers_now(self, exc: Exception, connection: Any) -> bool:
        """After a read timed out: whether Redis answers a PING within `confirm_within_s`.
        A read times out when this process's event loop stalls past its deadline even if
        Redis answered in time (the loop wakes to the answer and the deadline at once, and
        the deadline wins): a stalled loop is not an outage. A refused connection is."""
        if not isinstance(exc, (RedisTimeoutError, TimeoutError)):
            return False
        try:
            await asyncio.wait_for(connection.ping(), self.confirm_within_s)
        except asyncio.CancelledError:
            raise
        except Exception:
            return False
        return True

    async def group_add(self, group: str, channel: str) -> None:
        if channel in self.buffers:
            self.local_groups.setdefault(group, set()).add(channel)
            self.memberships.setdefault(channel, set()).add(group)
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        members = self.local_groups.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self.local_groups[group]
        self.memberships.get(channel, set()).discard(group)
        await super().group_discard(group, channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        key, serialized, skip = self._told(group, message)
        await self._tell([key], [serialized, skip])

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Each (group, message) as `group_send` would send it, in order, all in one Redis
        round trip (a group commit's notices: matches/broadcast.py). The round trip, not the
        message, is most of what telling a group costs this process (issue 40: about 0.15
        ms of CPU, whatever the message's size)."""
        keys, told = [], []
        for group, message in messages:
            key, serialized, skip = self._told(group, message)
            keys.append(key)
            told += (serialized, skip)
        if keys:
            await self._tell(keys, told)

    def _told(self, group: str, message: dict[str, Any]) -> tuple[str, bytes, str]:
        """The message delivered to this process's channels in the group (no round trip),
        and what the script needs to push it to the others: the group's key, the message
        serialized and the inbox to skip (this one, if it has delivered the group)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        local = None
        if self.loop is asyncio.get_running_loop():
            local = self.local_groups.get(group)
        if local:
            self._deliver(list(local), message)  # this process's sockets: no round trip
        return self._group_key(group), self.serialize(message), self.inbox if local else ""

    async def _tell(self, keys: list[str], told: list[Any]) -> None:
        """The script (`_GROUP_SEND`) on these groups' keys; `told`: each one's message and
        inbox to skip."""
        now, capacity = time.time(), self.inbox_capacity
        args = (now, self.group_expiry, int(self.expiry), capacity, self.prefix, *told)
        connection = self.connection(0)
        try:
            await connection.evalsha(_GROUP_SEND_SHA, len(keys), *keys, *args)
        except NoScriptError:  # the first time (or after a Redis restart)
            await connection.eval(_GROUP_SEND, len(keys), *keys, *args)

    async def flush(self) -> None:
        await self._stop_reader()
        self.buffers.clear()
        self.local_groups.clear()
        self.memberships.clear()
        await super().flush()

    async def close_pools(self) -> None:
        await self._stop_reader()
        await super().close_pools()

    async def _stop_reader(self) -> None:
        reader, self.reader = self.reader, None
        if reader is not None and not reader.done():
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
