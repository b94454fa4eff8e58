"""The embedded defaults' channel layer: Channels' in-memory layer, made cheap per message.

It overrides one private method of `InMemoryChannelLayer` (`_clean_expired`) and relies on
its storage (`channels`: channel -> asyncio.Queue of (expires, message); `groups`: group ->
{channel: joined}); tests/platform/test_channel_layer.py's "upstream" tests fail when a
Channels upgrade changes either.

`InMemoryChannelLayer.receive` sweeps every channel and every group membership for
expired entries on each call, so with S sockets each delivered message costs O(S):
at 800 sockets that sweep was most of a move's cost. Here the sweep runs at most once
a second, which keeps its purpose (expired messages and memberships still go) while a
message costs O(1) again. The layer stays single-process; REDIS_URL replaces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy

from channels.layers import InMemoryChannelLayer


class EmbeddedChannelLayer(InMemoryChannelLayer):
    sweep_every_s = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_every_s
        super()._clean_expired()

    async def group_send(self, group, message):
        """Each member's queue gets the message directly, all sharing one copy: Channels'
        version makes a task and a deep copy per member (the deep copy of a move's notice,
        four times a move, was a twentieth of the server's CPU). The Redis layer below
        delivers to its local channels the same way; receivers do not change a message."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        shared = deepcopy(message)  # once: the sender may reuse its dict
        expires = time.time() + self.expiry
        for channel in list(self.groups.get(group, ())):
            queue = self.channels.setdefault(
                channel, asyncio.Queue(maxsize=self.get_capacity(channel))
            )
            with contextlib.suppress(asyncio.QueueFull):  # full: dropped, as Channels does
                queue.put_nowait((expires, shared))
