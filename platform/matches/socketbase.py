"""The two places the match socket replaces Channels' own consumer code, kept here alone.

`AsyncConsumer.__call__` and `AsyncConsumer.dispatch` are not documented extension points;
each replacement below is Channels 4.3's own code with one change, named in its docstring.
tests/matches/test_socketbase.py fails when Channels changes either original, so an upgrade
shows what to look at again.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch

# A websocket message's private key: when it reached this process.
RECEIVED = "_received_ms"


class SocketBase(AsyncWebsocketConsumer):
    """AsyncWebsocketConsumer with (1) frames timed as they reach the process, (2) a channel
    receive of the subclass's choosing (`channel_receive_surviving`: one that survives the
    layer going away) and (3) no database connection closed before every message."""

    async def channel_receive_surviving(self) -> dict[str, Any]:
        return await self.channel_layer.receive(self.channel_name)

    async def __call__(self, scope, receive, send):
        """Channels' `__call__` (a channel layer is required here), changed in two ways:
        the channel receive is `channel_receive_surviving`, and client frames are stamped
        with their arrival (`message[RECEIVED]`, epoch ms) by a pump as they reach this
        process, not when this consumer is free to handle them: a frame may wait behind the
        previous one's work, and that wait is the server's, not the link's."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.channel_receive = self.channel_receive_surviving
        self.base_send = send
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def pump() -> None:
            while True:
                message = await receive()
                message[RECEIVED] = time.time() * 1000
                inbox.put_nowait(message)
                if message.get("type") == "websocket.disconnect":
                    return

        pumping = asyncio.ensure_future(pump())
        try:
            with contextlib.suppress(StopConsumer):
                await await_many_dispatch([inbox.get, self.channel_receive], self.dispatch)
        finally:
            pumping.cancel()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every message.

        That call hops to the database thread and closes the connection for each frame and
        each group notice, which cost more than the move itself. Every database call of the
        socket goes through `matches.dbcall.db_call`, which looks after the connection.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
