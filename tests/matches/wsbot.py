"""A protocol-v1 bot over a real WebSocket (the `websockets` library): end-to-end tests
and bench/bench_matches.py both drive matches with it."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect

from matches.ratelimit import TokenBucket

Policy = Callable[[dict[str, Any], int], dict[str, Any]]
_ids = itertools.count()


def hidden_hand_policy(view: dict[str, Any], seat: int) -> dict[str, Any]:
    if view["deck_size"]:
        return {"type": "draw"}
    return {"type": "play", "card": view["hand"][0]}


def draw_policy(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "draw"}


class Bot:
    def __init__(
        self,
        ws_url: str,
        token: str | None,
        policy: Policy = draw_policy,
        name: str = "",
        keep_frames: bool = True,
        ack_in_state: bool = False,
    ):
        self.ws_url = ws_url
        self.token = token
        self.policy = policy
        self.name = name or f"bot{next(_ids)}"
        self.ws: Any = None
        # Every frame, for tests to inspect; a benchmark keeps none (`keep_frames=False`):
        # a load generator hoarding parsed frames pauses for its own garbage collection.
        self.keep_frames = keep_frames
        # hello.ack_in_state: an act's ack comes on its state frame (as the browser asks).
        self.ack_in_state = ack_in_state
        self.frames: list[dict[str, Any]] = []
        self.errors = 0
        self.seq: int | None = None
        self.view: Any = None
        self.room: dict[str, Any] = {}
        self.seats: list[int] = []
        self.acted_at: set[int] = set()  # seqs at which this bot sent an action
        self.sent: list[str] = []  # action ids, in order
        self.round_trips: list[float] = []
        self.round_trip_starts: list[float] = []  # perf_counter() when each was sent
        self.state_frames = 0  # how many "state" frames came, and their bytes (benchmarks)
        self.state_bytes = 0
        self.bucket = TokenBucket(rate=16, burst=32)

    async def open(self, since: int | None = None, origin: str | None = None) -> None:
        origin = origin or self.ws_url.replace("ws://", "http://").split("/play/")[0]
        self.ws = await connect(self.ws_url, origin=origin, open_timeout=30, max_size=2**20)
        hello: dict[str, Any] = {"type": "hello", "v": 1}
        if self.token:
            hello["token"] = self.token
        if since is not None:
            hello["since"] = since
        if self.ack_in_state:
            hello["ack_in_state"] = True
        await self.send(hello)
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        self.seats = welcome["seats"]
        await self.until(lambda f: f["type"] == "state")

    async def send(self, message: dict[str, Any]) -> None:
        # Stay under the server's per-connection rate limit (20 frames/s, bursts of 40),
        # as a well-behaved client does; flooding is tested on purpose elsewhere.
        while not self.bucket.take():
            await asyncio.sleep(0.02)
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        frame = json.loads(text)
        if self.keep_frames:
            self.frames.append(frame)
        if frame["type"] == "error":
            self.errors += 1
        if frame["type"] == "state":
            self.seq, self.view, self.room = frame["seq"], frame["view"], frame["match"]
            self.state_frames += 1
            self.state_bytes += len(text.encode())
        elif frame["type"] == "room":
            self.room = frame["match"]
        return frame

    async def until(self, predicate, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(frame):
                return frame

    def my_turn(self) -> int | None:
        if self.room.get("status") != "playing" or self.seq in self.acted_at:
            return None
        mine = [s for s in self.room.get("to_act", []) if s in self.seats]
        return mine[0] if mine else None

    async def act(self, seat: int, action_id: str | None = None) -> dict[str, Any]:
        """Send one action and wait for its ack or error; returns that frame (an ack that
        came on a state frame as an `ack` frame)."""
        action_id = action_id or f"{self.name}-{self.seq}"
        self.acted_at.add(self.seq)
        self.sent.append(action_id)
        started = time.perf_counter()
        message = {
            "type": "act",
            "action": self.policy(self.view, seat),
            "action_id": action_id,
            "seat": seat,
            "seq": self.seq,
        }
        while True:
            await self.send(message)
            reply = await self.until(
                lambda f: (
                    (
                        f["type"] in ("ack", "error")
                        and f.get("action_id", f.get("ref")) == action_id
                    )
                    or f.get("code") == "rate_limited"
                    or (f["type"] == "state" and f.get("ack", {}).get("action_id") == action_id)
                )
            )
            if reply["type"] == "state":
                reply = {"type": "ack", **reply["ack"]}
                break
            if reply.get("code") != "rate_limited":
                break
            # The server dropped the frame (DESIGN: per-connection rate limit): wait for
            # the bucket to refill and send it again; the action id keeps it idempotent.
            await asyncio.sleep(0.5)
        self.round_trips.append(time.perf_counter() - started)
        self.round_trip_starts.append(started)
        return reply

    async def play(
        self, max_moves: int | None = None, timeout: float = 120, until_seq: int | None = None
    ) -> int:
        """Play my turns until the match ends (or after `max_moves` of mine, or once the
        match has reached `until_seq`)."""
        moves = 0
        deadline = time.monotonic() + timeout
        while self.room.get("status") != "finished":
            if max_moves is not None and moves >= max_moves:
                return moves
            if until_seq is not None and (self.seq or 0) >= until_seq:
                return moves
            seat = self.my_turn()
            if seat is None:
                await self.until(
                    lambda f: f["type"] in ("state", "room"),
                    timeout=max(0.01, deadline - time.monotonic()),
                )
                continue
            reply = await self.act(seat)
            if reply["type"] == "ack":
                moves += 1
        return moves

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def seen_event_seqs(self) -> list[int]:
        return [e["seq"] for f in self.frames if f["type"] == "state" for e in f["events"]]
