"""matches.broadcast.send_notices in-process, with a channel layer that stops answering:
an act's ack must not wait on its notice longer than NOTICE_WAIT_S (issue 40: a hung Redis
held every ack of the process)."""

from __future__ import annotations

import asyncio
import time

from matches import broadcast


class HungLayer:
    """Takes a group message, then never answers (a paused Redis)."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.answer = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append(message)
        await self.answer.wait()


def test_notices_to_a_layer_that_does_not_answer_let_the_ack_go_out(monkeypatch):
    async def scenario() -> None:
        layer = HungLayer()
        monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
        notices = [broadcast.notice("m1", 4), broadcast.notice("m2", 9)]
        started = time.monotonic()
        await broadcast.send_notices(notices)
        took = time.monotonic() - started
        assert [m["seq"] for m in layer.sent] == [4, 9]  # each was handed to the layer
        assert took < 2 * broadcast.NOTICE_WAIT_S + 0.2
        assert len(broadcast._still_sending) == 2  # still going, and held meanwhile
        layer.answer.set()  # the layer answers at last: nothing is left behind
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not broadcast._still_sending

    asyncio.run(scenario())
