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


class HungBatchingLayer(HungLayer):
    """A layer that tells several groups at once (config/notice_layer.py) and never answers."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[int]] = []

    async def group_send_many(self, messages: list) -> None:
        self.batches.append([m["seq"] for _group, m in messages])
        await self.answer.wait()


def test_a_group_commits_notices_go_in_one_batch_that_does_not_hold_the_ack(monkeypatch):
    async def scenario() -> None:
        layer = HungBatchingLayer()
        monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
        notices = [broadcast.notice(f"m{n}", n) for n in (4, 9, 2)]
        started = time.monotonic()
        await broadcast.send_notices(notices)
        assert time.monotonic() - started < broadcast.NOTICE_WAIT_S + 0.2
        assert layer.batches == [[4, 9, 2]] and not layer.sent  # one batch, in order
        assert len(broadcast._still_sending) == 1
        await broadcast.send_notices([broadcast.notice("m7", 7)])  # alone: group_send
        assert [m["seq"] for m in layer.sent] == [7]
        layer.answer.set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not broadcast._still_sending

    asyncio.run(scenario())
