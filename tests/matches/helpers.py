"""Helpers for match tests: play a match through services, talk to the consumer."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from channels.testing import WebsocketCommunicator

import gamekit
from matches import services
from matches.log import replay_steps
from matches.models import Match

ORIGIN = [(b"origin", b"http://localhost")]


def application():
    from config.asgi import application as app

    return app


def game_for(match: Match) -> gamekit.Game:
    return gamekit.registry.get(match.game)


def load(match_id: Any) -> tuple[Match, Any]:
    match = Match.objects.get(pk=match_id)
    game = game_for(match)
    return match, (game.load_state(match.state) if match.state is not None else None)


def states_by_seq(match: Match) -> dict[int, Any]:
    """The game state after every seq, replayed from the log (the match layer's one replay,
    `log.replay_steps`), to hold the states the server sent against."""
    return {0: None, **{step.row.seq: step.state for step in replay_steps(match)}}


def a_legal_action(match_id: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    match, state = load(match_id)
    return rng.choice(game_for(match).legal_actions(state, seat))


class Client:
    """One WebSocket connection through the real ASGI stack (origin check included)."""

    def __init__(self, match_id: Any, token: str | None = None, headers: list | None = None):
        self.match_id = str(match_id)
        self.token = token
        self.comm = WebsocketCommunicator(
            application(), f"/play/{self.match_id}/ws/", headers=[*ORIGIN, *(headers or [])]
        )
        self.frames: list[dict[str, Any]] = []
        self.seq: int | None = None
        self.view: Any = None
        self.view_seat: int | None = None
        self.room: dict[str, Any] = {}

    async def connect(
        self, since: int | None = None, token: str | None = None, **fields: Any
    ) -> dict:
        """Open the socket and say hello (with any further hello `fields`)."""
        connected, _ = await self.comm.connect()
        assert connected
        hello: dict[str, Any] = {"type": "hello", "v": 1, **fields}
        if (token or self.token) is not None:
            hello["token"] = token or self.token
        if since is not None:
            hello["since"] = since
        await self.send(hello)
        welcome = await self.recv()
        if welcome["type"] == "welcome":
            await self.until(lambda f: f["type"] == "state")
        return welcome

    async def send(self, message: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(message))

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        # Poll instead of receive_output(timeout): its timeout cancels the application.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.comm.output_queue.empty():
            if self.comm.future.done():
                self.comm.future.result()  # the consumer crashed: raise its error
                raise AssertionError("the consumer stopped")
            if loop.time() >= deadline:
                raise TimeoutError
            await asyncio.sleep(0.002)
        frame = await self.comm.receive_json_from(timeout=1)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.seq = frame["seq"]
            self.view = frame["view"]
            self.view_seat = frame["view_seat"]
            self.room = frame["match"]
        elif frame["type"] == "room":
            self.room = frame["match"]
        return frame

    async def until(self, predicate, timeout: float = 10) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError("timed out waiting for a frame")
            frame = await self.recv(timeout=left)
            if predicate(frame):
                return frame

    async def drain(self, quiet: float = 0.15) -> None:
        """Read frames until none arrives for `quiet` seconds."""
        while True:
            try:
                await self.recv(timeout=quiet)
            except TimeoutError:
                return

    async def close(self) -> None:
        await self.comm.disconnect()


def create(slug: str = "hiddenhand", mode: str = "cpu", **game_settings) -> tuple[Match, str]:
    settings = {"players": 2, "turns": 10, **game_settings}
    return services.create_match(slug, settings, mode)
