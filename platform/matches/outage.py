"""A match socket while the channel layer (Redis) is down: the socket stays open, follows
its match from the database, and rejoins its group when the layer answers again
(docs/matches.md, "When Redis goes away")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.exceptions import StopConsumer
from django.utils import translation

from matches import services
from matches.dbcall import db_call

log = logging.getLogger("matches.consumers")  # the socket's one logger

# While the layer is down: how often a socket reads its match's seq and tries to rejoin.
LAYER_RETRY_S = 0.5


class LayerRecovery:
    """MatchConsumer's channel receive, which survives the layer going away."""

    layer_down = False  # set per socket while its channel receive fails

    async def channel_receive_surviving(self) -> dict[str, Any]:
        while True:
            try:
                return await self.channel_layer.receive(self.channel_name)
            except (asyncio.CancelledError, StopConsumer):
                raise
            except Exception as exc:
                await self._layer_lost(exc)

    async def _layer_lost(self, exc: Exception) -> None:
        """Wait for the channel layer to come back, then rejoin the group and resync."""
        if not self.layer_down:
            self.layer_down = True
            log.warning("channel layer unavailable: %s", type(exc).__name__)
            # The client is told its table may lag (moves still go through the database).
            with contextlib.suppress(Exception):
                await self.send_json({"type": "lag", "lagging": True})
        while True:
            await asyncio.sleep(LAYER_RETRY_S)
            # No notice can arrive meanwhile (another process's, or this one's own: this
            # receive is what would read them): the table follows the database instead.
            await self._follow_database()
            try:
                # Bounded: a Redis that does not answer must not hold up the next look at
                # the database (a move or a CPU answer is seen within LAYER_RETRY_S or so).
                await asyncio.wait_for(self._rejoin(), LAYER_RETRY_S)
            except Exception:
                continue
            break
        self.layer_down = False
        with contextlib.suppress(Exception):
            await self.send_json({"type": "lag", "lagging": False})
            if self.joined:
                with translation.override(self.lang):
                    await self.push()  # fresh from the database: what the notices missed

    async def _rejoin(self) -> None:
        if self.joined:
            # Redis lost its memory too: the group membership must be made again.
            await self.channel_layer.group_add(
                services.group_name(self.match_id), self.channel_name
            )
        else:  # not in a group yet: just see whether the layer answers
            await self.channel_layer.group_discard("matches.probe", self.channel_name)

    async def _follow_database(self) -> None:
        """While the layer is down: push what the database has that this socket lacks."""
        if not self.joined or self.closed:
            return
        with contextlib.suppress(Exception):  # the database may be down too: next time
            seq = await db_call(self._current_seq)()
            if self.sent_seq is None or seq > self.sent_seq:
                with translation.override(self.lang):
                    await self.push()

    def _current_seq(self) -> int:
        return services.seq_of(self.match_id) or 0
