"""A scripted karuta player over a real WebSocket, for the fairness harness and its test.

It plays as a fast, honest person would on the karuta page (protocol v1, issue 18):
- at connect, a burst of pings estimates the server's clock (tests/support/clocksync.py),
  then a ping every `ping_every` s keeps the estimate fresh;
- a reading's clock is the server's: t = server_now - (frame.at + reading.t0);
- it learns the read poem only when the server releases it, "sees" it at the later of its
  due time and the moment it arrived (a kana that comes late is seen late), and touches
  the card `reaction()` ms after that, sending when its corrected clock reaches that time,
  with that time as `t`;
- it always touches the read card (every reading is contested when two of them play),
  sends `ready` when memorising, and one of its own cards when it must send.

`Racer.touches` records what it did per reading; `Racer.results` the readings' results
(every seat sees the same). No assertion here: the callers count.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support.clocksync import ClockSync

BURST = 8
_ids = itertools.count()


@dataclass
class Touch:
    number: int
    card: int
    t: int  # the claimed reading time (corrected clock)
    seen: float  # when the read poem was seen, on the same clock
    refused: str | None = None  # the server's error code, if any
    id: str | None = None  # the action id, once sent
    message: str | None = None
    reason: str | None = None  # an impossible touch's: future, late or guess
    late: float | None = None  # how long after its claimed time it was sent (corrected ms)


@dataclass
class Racer:
    url: str  # ws://host:port/play/<match>/ws/ (through a proxy or not)
    token: str
    reaction: Callable[[], float]  # ms from seeing the deciding kana to the touch
    origin: str
    name: str = ""
    ping_every: float = 1.0
    clock: ClockSync = field(default_factory=ClockSync)
    touches: dict[int, Touch] = field(default_factory=dict)
    results: dict[int, dict[str, Any]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    view: dict[str, Any] | None = None
    at: float | None = None
    status: str = ""
    frames: int = 0
    seq: int | None = None
    ready_sent: bool = False
    sent_for: int | None = None  # the seq at which the last send was chosen

    async def play(self, timeout: float = 600) -> None:
        """Connect, sync the clock, play to the end of the match (or the timeout)."""
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, origin=self.origin, open_timeout=30, max_size=2**22)
        self.pong_waiter: asyncio.Future | None = None
        self.tasks: set[asyncio.Task] = set()
        try:
            await self.send({"type": "hello", "v": 1, "token": self.token})
            reader = asyncio.ensure_future(self.read())
            await self.burst()
            pinger = asyncio.ensure_future(self.pinger())
            self.handle_view()  # the first state came before the clock was known
            try:
                await asyncio.wait_for(asyncio.shield(reader), timeout)
            finally:
                pinger.cancel()
                reader.cancel()
                for task in self.tasks:
                    task.cancel()
        finally:
            await self.ws.close()

    # --- the wire ------------------------------------------------------------------------

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def ping(self) -> None:
        t1 = self.clock.now()
        await self.send({"type": "ping", "t": t1, **self.clock.ping_fields(t1)})

    async def burst(self) -> None:
        for _ in range(BURST):
            self.pong_waiter = asyncio.get_running_loop().create_future()
            await self.ping()
            await asyncio.wait_for(self.pong_waiter, 10)

    async def pinger(self) -> None:
        while True:
            await asyncio.sleep(self.ping_every)
            await self.ping()

    async def act(self, action: dict[str, Any]) -> str:
        action_id = f"{self.name or 'racer'}-{next(_ids)}"
        await self.send({"type": "act", "action": action, "action_id": action_id})
        return action_id

    async def read(self) -> None:
        async for text in self.ws:
            t4 = self.clock.now()
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "pong":
                if isinstance(frame.get("now"), int | float):
                    self.clock.add(frame["t"], frame["now"], t4)
                if self.pong_waiter is not None and not self.pong_waiter.done():
                    self.pong_waiter.set_result(None)
            elif kind == "welcome":
                self.seat = frame["seats"][0] if frame.get("seats") else None
            elif kind == "state":
                self.on_state(frame)
                if self.status == "finished":
                    return
            elif kind == "room":
                self.status = frame["match"]["status"]
                if self.status == "finished":
                    return
            elif kind == "error":
                self.errors.append(frame)
                for touch in self.touches.values():
                    if touch.id is not None and frame.get("ref") == touch.id:
                        touch.refused = frame.get("code")
                        touch.message = frame.get("message")
                        touch.reason = frame.get("reason")

    # --- the game ------------------------------------------------------------------------

    def on_state(self, frame: dict[str, Any]) -> None:
        self.frames += 1
        self.view = frame["view"]
        self.seq = frame["seq"]
        self.at = frame.get("at")
        self.status = frame["match"]["status"]
        for entry in frame.get("events", []):
            for event in entry.get("events", []):
                if event.get("type") == "result":
                    self.results[event["number"]] = event
        if self.clock.ready:
            self.handle_view()

    def handle_view(self) -> None:
        view = self.view
        if not view or self.status != "playing":
            return
        me = view.get("you")
        if view["phase"] == "memorise" and me in view.get("to_act", []) and not self.ready_sent:
            self.ready_sent = True
            self.spawn(self.act({"type": "ready"}))
        elif view["phase"] == "send" and (view.get("send") or {}).get("from") == me:
            own = [card for row in view["sides"][me] for card in row]
            if own and self.sent_for != self.seq:
                self.sent_for = self.seq  # one send per state: the next says what is left
                self.spawn(self.act({"type": "send", "card": own[0]}))
        elif view["phase"] == "reading":
            self.maybe_touch(view["reading"])

    def maybe_touch(self, r: dict[str, Any]) -> None:
        me = self.view.get("you")
        if r.get("poem") is None or r["number"] in self.touches or me not in r["active"]:
            return
        if me in r.get("done", []) or self.at is None or r.get("t0") is None:
            return
        base = self.at + r["t0"]  # the server's epoch ms at this reading's t = 0
        now_t = self.clock.server_now() - base
        seen = max(float(r["decided"]), now_t)
        t = round(seen + self.reaction())
        touch = Touch(r["number"], r["poem"], t, seen)
        self.touches[r["number"]] = touch
        self.spawn(self.touch_at(touch, base))

    async def touch_at(self, touch: Touch, base: float) -> None:
        wait = touch.t - (self.clock.server_now() - base)
        if wait > 0:
            await asyncio.sleep(wait / 1000)
        # Claimed when sent, as the page claims the moment its touch event is handled: a
        # stalled event loop (a garbage collection of this process, which plays every racer)
        # made the touch later, not the claim earlier than the send.
        touch.late = self.clock.server_now() - base - touch.t
        touch.t = max(touch.t, round(touch.t + touch.late))
        touch.id = await self.act(
            {"type": "touch", "card": touch.card, "t": touch.t, "reading": touch.number}
        )

    def spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def gaussian_reaction(rng: random.Random, mean: float = 250, sd: float = 40, low: float = 150):
    """A person's reaction after the deciding kana: normal, never under `low` ms."""
    return lambda: max(low, rng.gauss(mean, sd))


def races(a: Racer, b: Racer) -> list[dict[str, Any]]:
    """The readings both racers touched, with who took the card (by seat), both claimed
    times and any refusal of either touch (code, message, reason)."""
    out = []
    for number, result in sorted(a.results.items()):
        ta, tb = a.touches.get(number), b.touches.get(number)
        if ta is None or tb is None or ta.card != result["poem"] or tb.card != result["poem"]:
            continue
        out.append(
            {
                "number": number,
                "taker": result.get("taker"),
                "a": ta.t,
                "b": tb.t,
                "a_wins": result.get("taker") == a.seat,
                "b_wins": result.get("taker") == b.seat,
                "by": result.get("by"),
                "late": [ta.late, tb.late],
                "a_refused": (ta.refused, ta.message, ta.reason) if ta.refused else None,
                "b_refused": (tb.refused, tb.message, tb.reason) if tb.refused else None,
            }
        )
    return out
