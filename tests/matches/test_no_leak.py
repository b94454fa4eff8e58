"""No leaks: every frame of a full match is inspected for the seed, tokens and hidden cards."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from channels.db import database_sync_to_async

import gamekit
from matches import services
from matches.models import Match
from tests.matches.helpers import Client, create, states_by_seq

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]
CARD = re.compile(r"card-[0-9a-f]{16}")


def secrets_for(state, viewer_seats: list[int]) -> set[str]:
    """Cards this viewer must not know at this point: the deck and everyone else's hand."""
    if state is None:
        return set()
    hidden = set(state["deck"])
    for seat, hand in enumerate(state["hands"]):
        if seat not in viewer_seats:
            hidden |= set(hand)
    return hidden


async def bot(client: Client, seat: int, rng: random.Random) -> None:
    while client.room.get("status") != "finished":
        if seat in client.room.get("to_act", []):
            view = client.view
            if view["deck_size"] and rng.random() < 0.6:
                action = {"type": "draw"}
            else:
                action = {"type": "play", "card": rng.choice(view["hand"])}
            # Now and then a card this seat does not hold: the error must not leak either.
            if rng.random() < 0.1:
                action = {"type": "play", "card": "card-0123456789abcdef"}
            await client.send(
                {
                    "type": "act",
                    "action": action,
                    "action_id": f"{seat}-{client.seq}-{rng.random()}",
                }
            )
            await client.until(lambda f: f["type"] in ("ack", "error"))
            if client.frames[-1]["type"] == "error":
                continue
        await client.until(lambda f: f["type"] in ("state", "room"))


async def test_no_frame_of_a_full_match_leaks_anything(settings):
    match, owner_token = await database_sync_to_async(create)(mode="friend", players=4, turns=36)
    joins = [await database_sync_to_async(services.join)(match.invite_code) for _ in range(2)]
    tokens = {0: owner_token, **{seat: token for _m, seat, token in joins}}
    players = {seat: Client(match.id, token) for seat, token in tokens.items()}
    watcher = Client(match.id)
    for client in [*players.values(), watcher]:
        await client.connect(since=0)
    await players[0].send({"type": "start"})  # seat 3 goes to the CPU
    await asyncio.gather(
        *(bot(c, seat, random.Random(seat)) for seat, c in players.items()),
        watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished", 60),
    )
    for client in [*players.values(), watcher]:
        await client.drain(0.2)
        await client.close()

    match = await database_sync_to_async(Match.objects.get)(pk=match.id)
    assert match.status == "finished"
    states = await database_sync_to_async(states_by_seq)(match)
    game = gamekit.registry.get(match.game)
    all_tokens = list(tokens.values())
    checked = 0
    for seat, client in [*players.items(), (None, watcher)]:
        viewer = [seat] if seat is not None else []
        last_seq = 0
        for frame in client.frames:
            text = json.dumps(frame, ensure_ascii=False)
            assert str(match.seed) not in text and "seed" not in text
            assert not any(token in text for token in all_tokens)
            seq = frame.get("seq", last_seq)
            last_seq = seq if frame["type"] in ("state", "room", "error") else last_seq
            leaked = set(CARD.findall(text)) & secrets_for(states[seq], viewer)
            assert not leaked, (seat, frame["type"], seq)
            if "view" in frame and frame["view"] is not None:
                # Built by the game's view for this connection's seat, nothing else.
                assert frame["view_seat"] == seat
                assert frame["view"] == game.view(states[seq], seat)
            checked += 1
    assert checked > 150
    # The secrets were really there to leak: hands were dealt and drawn.
    assert any(ev["type"] == "you_drew" for f in players[1].frames if f["type"] == "state"
               for e in f["events"] for ev in e["events"])  # fmt: skip
