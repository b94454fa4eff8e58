"""A karuta act that arrives after the reading it was meant for (issue 25): a `pass` or a
`touch` naming a reading that is over is refused as `stale` over a real socket and logged
as a refusal (the pass quietly: no frame to the other seat for it), and the reading in
progress is untouched."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from gamekit import GameError
from matches import broadcast, services
from matches.models import Action
from tests.matches.helpers import load

pytestmark = pytest.mark.django_db(transaction=True)

SETTINGS = {"mode": "competitive", "memorise_seconds": 0, "pace": "fast"}


async def refusal(ws, action_id: str) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == "error" and frame.get("ref") == action_id:
            return frame
        assert frame.get("type") != "ack", frame  # the act must not be applied


def test_a_pass_and_a_touch_for_a_closed_reading_are_refused_and_logged(asgi_server, monkeypatch):
    match, token = services.create_match("karuta", SETTINGS, "friend")
    _match, _seat, _other = services.join(match.invite_code)
    # Reading 1 closes: both seats pass (seat 0's own pass is what arrives late below).
    services.submit_action(match.id, [0], {"type": "pass", "reading": 1}, action_id="p0")
    services.submit_action(match.id, [1], {"type": "pass", "reading": 1}, action_id="p1")
    _m, before = load(match.id)
    assert before["phase"] == "reading" and before["reading"]["number"] == 2
    seq_before = _m.seq
    card = next(c for row in before["sides"][0] for c in row)

    async def late_acts() -> tuple[dict, dict]:
        origin = asgi_server.ws_url.replace("ws://", "http://")
        async with connect(f"{asgi_server.ws_url}/play/{match.id}/ws/", origin=origin) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            late_pass = {"type": "pass", "reading": 1}
            await ws.send(
                json.dumps({"type": "act", "action_id": "late-pass", "action": late_pass})
            )
            passed = await refusal(ws, "late-pass")
            late_touch = {"type": "touch", "card": card, "t": 900, "reading": 1}
            await ws.send(
                json.dumps({"type": "act", "action_id": "late-touch", "action": late_touch})
            )
            touched = await refusal(ws, "late-touch")
            return passed, touched

    passed, touched = asyncio.run(late_acts())
    for error in (passed, touched):
        assert error["code"] == "stale"
        assert error["view"]["reading"]["number"] == 2  # the current table comes with it
        assert error["reason"] == "reading"  # as its log line says
    after_match, after = load(match.id)
    assert after == before  # reading 2 untouched: no pass, no touch, seat 0 still to act
    assert 0 not in after["reading"]["done"] and after["reading"]["touches"][0] == []
    # Both are logged as refused, the pass quietly (the server had passed the seat already).
    lines = list(Action.objects.filter(match=match, seq__gt=seq_before).order_by("seq"))
    refused = [{"type": "refused", "seat": 0, "code": "stale", "reason": "reading"}]
    assert [(a.kind, a.seat, a.events) for a in lines] == [("room", 0, refused)] * 2
    assert [a.action for a in lines] == [{"type": "refused", "quiet": True}, {"type": "refused"}]
    assert after_match.seq == seq_before + 2
    assert not Action.objects.filter(client_action_id__in=["late-pass", "late-touch"]).exists()
    # A quiet line tells the group nothing (so no socket sends a frame for it); a touch's
    # line is announced as any line is.
    told: list[int] = []
    monkeypatch.setattr(broadcast, "notify", lambda match_id, seq, *rest: told.append(seq))
    late = [{"type": "pass", "reading": 1}, {"type": "touch", "card": card, "t": 900, "reading": 1}]
    for act in late:
        with pytest.raises(GameError):
            services.submit_action(match.id, [0], act)
    assert told == [seq_before + 4]  # the touch's line; the pass's (seq_before + 3) is quiet
    # The same acts for the reading in progress still count.
    services.submit_action(match.id, [0], {"type": "pass", "reading": 2}, action_id="p2")
    assert 0 in load(match.id)[1]["reading"]["done"]
