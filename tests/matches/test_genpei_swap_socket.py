"""The room's creator moves seats between genpei's teams over the socket (issue 41): the
frame is checked, only the creator may, and every connection's room lists the new teams."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from matches import services
from tests.matches.helpers import Client

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]

db = database_sync_to_async
GENPEI = {"mode": "genpei", "teams": [2, 2], "memorise_seconds": 0}


async def test_the_creator_swaps_two_seats_and_every_room_shows_the_new_teams():
    match, token = await db(services.create_match)("karuta", GENPEI, "friend")
    _m, seat, guest_token = await db(services.join)(match.invite_code, group=1)
    owner, guest = Client(match.id, token), Client(match.id, guest_token)
    await owner.connect()
    await guest.connect()
    assert owner.room["groups"] == [[0, 1], [2, 3]] and seat == 2
    for bad in ([1], [1, 1], [1, "2"], [1, True], "1,2", None, [1, 2, 3], [-1, 2]):
        await owner.send({"type": "swap", "seats": bad})
        frame = await owner.until(lambda f: f["type"] == "error")
        assert frame["code"] == "bad_message", bad
    await guest.send({"type": "swap", "seats": [0, 2]})
    assert (await guest.until(lambda f: f["type"] == "error"))["code"] == "not_owner"
    await owner.send({"type": "swap", "seats": [1, 2]})
    for client in (owner, guest):
        frame = await client.until(
            lambda f: f["type"] == "state" and f["match"]["groups"] == [[0, 2], [1, 3]]
        )
        assert frame["events"][-1]["texts"]
    await owner.send({"type": "swap", "seats": [0, 2]})  # now teammates
    assert (await owner.until(lambda f: f["type"] == "error"))["code"] == "not_allowed"
    await owner.close()
    await guest.close()
