"""The embedded defaults' channel layer: Channels' in-memory layer, made cheap per message.

`InMemoryChannelLayer.receive` sweeps every channel and every group membership for
expired entries on each call, so with S sockets each delivered message costs O(S):
at 800 sockets that sweep was most of a move's cost. Here the sweep runs at most once
a second, which keeps its purpose (expired messages and memberships still go) while a
message costs O(1) again. The layer stays single-process; REDIS_URL replaces it.
"""

from __future__ import annotations

import time

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
