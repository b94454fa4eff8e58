"""Issue 25's protocol defects, over the ASGI stack: a frame refused before its act is read
still names the act (`ref`) when its action id can be read; a `ping` with `"t": null` is not
a ping; a finished friend match's frames carry no invitation."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from matches.models import Match
from tests.matches.helpers import Client, create
from tests.matches.test_faults import error_for, finished_friend_match

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]

db = database_sync_to_async


def act(action_id: str, action: str) -> str:
    return f'{{"type": "act", "action_id": "{action_id}", "action": {action}}}'


@pytest.mark.parametrize(
    "text, code",
    [
        (act("a1", '{"type": "draw", "n": 1e400}'), "bad_message"),  # overflows to inf
        (act("a2", '{"type": "draw", "s": "x\\u0000"}'), "bad_message"),  # NUL
        (act("a3", '{"type": "draw", "s": "\\udc00"}'), "bad_message"),  # a lone surrogate
        (act("a4", '{"d": ' + "[" * 20 + "]" * 20 + "}"), "bad_message"),  # nested over 16
        (act("a5", '{"type": "draw", "n": NaN}'), "bad_json"),
        ('{"type": 7, "action_id": "a6"}', "bad_message"),
        (act("a7", '{"type": "draw",}'), "bad_json"),  # malformed: a trailing comma
        (act("a8", '{"type": "draw"'), "bad_json"),  # cut short
    ],
)
async def test_a_frame_refused_before_its_act_is_read_names_the_act(text, code):
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    frame = await error_for(client, text)
    assert frame["code"] == code
    assert frame["ref"] == text.split('"action_id": "')[1][:2]
    await client.close()


async def test_an_unreadable_action_id_is_not_named():
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    frame = await error_for(client, '{"type": "act", "action_id": "a\\u0000", "action": {}}')
    assert frame["code"] == "bad_message" and "ref" not in frame
    await client.close()


async def test_a_ping_with_a_null_t_is_refused_and_one_without_t_is_answered():
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    assert (await error_for(client, '{"type": "ping", "t": null}'))["code"] == "bad_message"
    await client.send({"type": "ping"})
    pong = await client.until(lambda f: f["type"] == "pong")
    assert pong["t"] is None
    await client.close()


async def test_a_finished_friend_match_offers_no_invitation():
    match, token, guest = await finished_friend_match()
    assert match.status == Match.Status.FINISHED and match.invite_code
    for seat_token in (token, guest):
        client = Client(match.id, seat_token)
        await client.connect()
        await client.send({"type": "resync"})
        frame = await client.until(lambda f: f["type"] == "state")
        assert frame["match"]["status"] == "finished" and "invite_code" not in frame["match"]
        await client.close()
