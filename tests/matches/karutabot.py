"""A scripted karuta player (or spectator) over a real WebSocket (protocol v1, issue 18).

It syncs its clock with the server NTP-style (a burst of pings echoing each pong's `now`),
reads the reading's clock as server time − (frame.at + reading.t0), and plays as an honest,
quick person: touches the read card `reaction` ms after the server has named it, passes
once another seat's touch on it or the close has gone by, sends ready and its cards.
Every state frame is kept with its local receipt time (`received`, epoch ms), so tests can
check what arrived when. (tests/support/clocksync.py, kclient's twin of the page's clock,
can replace the small estimate here once it is merged.)
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from typing import Any

from websockets.asyncio.client import connect

_ids = itertools.count()


def wall_ms() -> float:
    return time.time() * 1000


class KarutaBot:
    def __init__(
        self,
        ws_url: str,
        token: str | None,
        *,
        name: str = "",
        reaction: tuple[int, int] = (150, 400),
        seed: int = 0,
        play: bool = True,
    ):
        self.ws_url, self.token, self.name = ws_url, token, name or f"k{next(_ids)}"
        self.reaction = reaction
        self.rng = random.Random(seed)
        self.play_on = play and token is not None
        self.ws: Any = None
        self.seat: int | None = None
        self.received: list[tuple[float, dict[str, Any]]] = []  # (receipt ms, state frame)
        self.log: dict[int, list[dict[str, Any]]] = {}  # seq -> events, as this bot saw them
        self.errors: list[dict[str, Any]] = []
        self.sent: dict[str, dict[str, Any]] = {}  # action id -> the action sent with it
        self.view: dict[str, Any] | None = None
        self.at: int | None = None
        self.status = ""
        self.samples: list[tuple[float, float]] = []  # (delay, offset)
        self.last_pong: tuple[int, float] | None = None  # (server now, local receipt)
        self.done: set[tuple[Any, ...]] = set()  # what was sent, per reading / seq
        self.targets: dict[int, float] = {}  # reading number -> planned touch time
        self.finished = asyncio.Event()
        self._pong = asyncio.Event()

    # --- the wire --------------------------------------------------------------------------

    async def open(self) -> None:
        origin = self.ws_url.replace("ws://", "http://").split("/play/")[0]
        self.ws = await connect(self.ws_url, origin=origin, open_timeout=30, max_size=2**22)
        hello: dict[str, Any] = {"type": "hello", "v": 1}
        if self.token:
            hello["token"] = self.token
        await self.send(hello)
        self.reader = asyncio.ensure_future(self._read())
        for _ in range(8):  # the burst: each ping as soon as the previous pong is in
            self._pong.clear()
            await self.ping()
            await asyncio.wait_for(self._pong.wait(), 10)

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def ping(self) -> None:
        message: dict[str, Any] = {"type": "ping", "t": wall_ms()}
        if self.last_pong is not None:
            now, got = self.last_pong
            message.update(echo=now, held=min(60000, round(wall_ms() - got)))
        await self.send(message)

    def server_now(self) -> float:
        best = sorted(self.samples)[:3]
        offset = sum(o for _d, o in best) / len(best) if best else 0.0
        return wall_ms() + offset

    async def _read(self) -> None:
        async for text in self.ws:
            got = wall_ms()
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "pong" and isinstance(frame.get("now"), int):
                t1 = frame["t"]
                self.samples.append((got - t1, frame["now"] - (t1 + got) / 2))
                self.last_pong = (frame["now"], got)
                self._pong.set()
            elif kind == "welcome":
                self.seat = frame["seats"][0] if frame["seats"] else None
            elif kind == "state":
                self.received.append((got, frame))
                self.view, self.at = frame["view"], frame.get("at")
                self.status = frame["match"]["status"]
                for entry in frame["events"]:
                    self.log[entry["seq"]] = entry["events"]
                if self.status == "finished":
                    self.finished.set()
            elif kind == "room":
                self.status = frame["match"]["status"]
            elif kind == "error":
                self.errors.append(frame)

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def full_log(self) -> dict[int, list[dict[str, Any]]]:
        """Every log line from the start, as this connection sees it (a resync from 0)."""
        count = len(self.received)
        await self.send({"type": "resync", "since": 0})
        while len(self.received) == count:
            await asyncio.sleep(0.01)
        return {e["seq"]: e["events"] for e in self.received[-1][1]["events"]}

    def refused(self) -> list[dict[str, Any]]:
        """This bot's refusals, but for the answers a pass gets when the server passed the
        seat first, at its deadline (its judging window closed: games/karuta/judge.py
        `deadline`, played on the server's own timer): `not_your_turn` while other seats
        still play the reading, `stale` with reason `reading` once it is over (the engine's
        StaleActError, a quiet log line). Nothing is lost either way; under load the pass
        is the slower of the two (it waits for another seat's touch to reach this bot)."""

        def raced(error: dict[str, Any]) -> bool:
            if error["code"] == "not_your_turn":
                return True
            passed = self.sent.get(error.get("ref", ""), {}).get("type") == "pass"
            return passed and error["code"] == "stale" and error.get("reason") == "reading"

        return [e for e in self.errors if not raced(e)]

    # --- playing ---------------------------------------------------------------------------

    def reading_number(self) -> int:
        r = (self.view or {}).get("reading")
        return r["number"] if r else 0

    async def play(self, timeout: float = 240, readings: int | None = None) -> None:
        """Play until the match is finished, or until reading `readings` is over (pinging
        every 2 s, as the page does)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last_ping = loop.time()
        while not self.finished.is_set():
            if readings is not None and self.reading_number() > readings:
                return
            if loop.time() > deadline:
                raise AssertionError(f"{self.name}: the match did not finish in time")
            if loop.time() - last_ping > 2:
                last_ping = loop.time()
                await self.ping()
            if self.play_on and self.view is not None and self.at is not None:
                action = self.next_action()
                if action is not None:
                    action_id = f"{self.name}-{next(_ids)}"
                    self.sent[action_id] = action
                    await self.send({"type": "act", "action": action, "action_id": action_id})
            await asyncio.sleep(0.005)

    def _once(self, key: tuple[Any, ...]) -> bool:
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def next_action(self) -> dict[str, Any] | None:
        view, me = self.view, self.seat
        if me is None or me not in view["to_act"]:
            return None
        phase = view["phase"]
        if phase == "memorise":
            return {"type": "ready"} if self._once(("ready",)) else None
        if phase == "send":
            # Genpei: the taker ("by") sends one of its team's cards.
            send = view["send"]
            own = [c for row in view["sides"][send["from"]] for c in row]
            chooser = send.get("by", send["from"])
            if chooser == me and own and self._once(("send", send["from"], len(own))):
                return {"type": "send", "card": own[0]}
            return None
        if phase != "reading":
            return None
        r = view["reading"]
        number = r["number"]
        t = self.server_now() - (self.at + r["t0"])
        poem = r["poem"]
        on_field = poem is not None and poem in (
            [c for rows in view["sides"] for row in rows for c in row]
            if view["mode"] in ("competitive", "genpei")
            else [e[0] for e in view["field"]]
        )
        if on_field:
            target = self.targets.setdefault(
                number, r["decided"] + self.rng.randint(*self.reaction)
            )
            taken = [tt for s, c, tt in r["touches"] if c == poem and s != me]
            if taken and min(taken) < target:
                return {"type": "pass", "reading": number} if self._once(("pass", number)) else None
            if t >= target and self._once(("touch", number)):
                # Touching the read card finishes this seat's reading: no pass after it, even
                # if another seat's earlier touch shows up next (the page marks itself done).
                self.done.add(("pass", number))
                return {"type": "touch", "card": poem, "t": max(0, round(t)), "reading": number}
            return None
        if r["close"] is not None and t > r["close"] and self._once(("pass", number)):
            return {"type": "pass", "reading": number}
        return None
