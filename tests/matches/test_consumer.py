"""The WebSocket consumer through Channels' WebsocketCommunicator and the real ASGI stack."""

from __future__ import annotations

import asyncio
import copy
import json
import random

import pytest
from channels.db import database_sync_to_async

from matches import consumers, services
from matches.models import Action, Match
from tests.matches.helpers import Client, a_legal_action, create, load

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]

db = database_sync_to_async


async def make(**kwargs):
    return await db(create)(**kwargs)


async def legal(match_id, seat, rng):
    return await db(a_legal_action)(match_id, seat, rng)


async def status(match_id):
    return await db(lambda: Match.objects.get(pk=match_id).status)()


async def play_turns(
    client: Client, seats: list[int], rng: random.Random, until_over=True, reveal=False
):
    """Act whenever one of `seats` is to act, until the match ends. With `reveal`, a shared
    device is claimed ("show me") by each player before they act."""
    for _ in range(400):
        room = client.room
        if room.get("status") == "finished":
            return
        mine = [s for s in room.get("to_act", []) if s in seats]
        if not mine:
            await client.until(lambda f: f["type"] in ("state", "room"), timeout=10)
            continue
        if reveal and client.view_seat != mine[0]:
            seat = mine[0]
            await client.send({"type": "reveal", "seat": seat})
            await client.until(lambda f, seat=seat: f["type"] == "state" and f["view_seat"] == seat)
        action = await legal(client.match_id, mine[0], rng)
        await client.send(
            {
                "type": "act",
                "action": action,
                "action_id": f"{mine[0]}-{client.seq}",
                "seat": mine[0],
            }
        )
        await client.until(lambda f: f["type"] in ("ack", "error"))
    raise AssertionError("the match did not end")


async def test_hotseat_one_connection_plays_every_seat():
    match, token = await make(mode="hotseat", players=3)
    client = Client(match.id, token)
    welcome = await client.connect()
    assert welcome == {"type": "welcome", "v": 1, "seats": [0, 1, 2], "spectator": False}
    await play_turns(client, [0, 1, 2], random.Random(1), reveal=True)
    assert await status(match.id) == "finished"
    seqs = [f["seq"] for f in client.frames if f["type"] == "state"]
    assert seqs == sorted(seqs)
    # The device shows the view of the seat whose turn it is, once that player claimed it;
    # before, it shows nothing but whom to pass it to.
    playing = [f for f in client.frames if f["type"] == "state" and f["match"]["to_act"]]
    blind = [f for f in playing if "handoff" in f]
    shown = [f for f in playing if "handoff" not in f]
    assert blind and shown
    assert all(f["view"] is None and f["view_seat"] is None for f in blind)
    assert all(f["handoff"]["seat"] == f["match"]["to_act"][0] for f in blind)
    assert all(f["view_seat"] == f["match"]["to_act"][0] for f in shown)
    await client.close()


async def test_cpu_match_cpu_replies_and_every_move_arrives_in_order():
    match, token = await make(mode="cpu", players=3, turns=12)
    client = Client(match.id, token)
    await client.connect(since=0)
    await play_turns(client, [0], random.Random(2))
    final = await db(Match.objects.get)(pk=match.id)
    # Every log entry reached the client exactly once, in order.
    seen = [e["seq"] for f in client.frames if f["type"] == "state" for e in f["events"]]
    assert seen == list(range(1, final.seq + 1))
    actors = await db(
        lambda: set(Action.objects.filter(match=match).values_list("actor", flat=True))
    )()
    assert {"human", "cpu"} <= actors
    await client.close()


async def test_racing_actions_one_applied_the_other_told_with_the_current_view():
    match, token = await make(mode="cpu")
    a, b = Client(match.id, token), Client(match.id, token)  # two tabs, one seat
    await a.connect()
    await b.connect()
    seq = a.seq
    await asyncio.gather(
        a.send({"type": "act", "action": {"type": "draw"}, "action_id": "tab-a", "seq": seq}),
        b.send({"type": "act", "action": {"type": "draw"}, "action_id": "tab-b", "seq": seq}),
    )
    replies = [
        await a.until(lambda f: f["type"] in ("ack", "error")),
        await b.until(lambda f: f["type"] in ("ack", "error")),
    ]
    kinds = sorted(r["type"] for r in replies)
    assert kinds == ["ack", "error"]
    error = next(r for r in replies if r["type"] == "error")
    assert error["code"] in ("stale", "not_your_turn")
    assert error["message"] and error["seq"] >= seq + 1 and "hand" in error["view"]
    assert await db(lambda: Action.objects.filter(match=match, actor="human").count())() == 1
    # A retried send of the applied action is acknowledged, not applied again.
    winner = a if replies[0]["type"] == "ack" else b
    ack = next(r for r in replies if r["type"] == "ack")
    await winner.send(
        {"type": "act", "action": {"type": "draw"}, "action_id": ack["action_id"], "seq": seq}
    )
    again = await winner.until(lambda f: f["type"] in ("ack", "error"))
    assert again == {**ack, "duplicate": True}
    assert await db(lambda: Action.objects.filter(match=match, actor="human").count())() == 1
    await a.close()
    await b.close()


async def test_an_ack_rides_on_the_state_frame_when_the_client_asks_at_hello():
    """hello.ack_in_state: the actor's state frame carries its ack (one frame, not two);
    an ack with no new state to ride on (a retried id) still comes as its own frame."""
    match, token = await make(mode="cpu")
    client = Client(match.id, token)
    await client.connect(ack_in_state=True)
    seq = client.seq
    client.frames.clear()
    act = {"type": "act", "action": {"type": "draw"}, "action_id": "ride", "seq": seq}
    await client.send(act)
    state = await client.until(lambda f: f["type"] in ("state", "ack", "error"))
    assert state["type"] == "state", state
    assert state["ack"] == {"action_id": "ride", "seq": seq + 1, "duplicate": False}
    assert state["seq"] >= seq + 1 and state["events"][0]["seq"] == seq + 1
    await client.drain()
    assert not [f for f in client.frames if f["type"] == "ack"]
    await client.send(act)  # the same id again: acknowledged, not applied, nothing new
    again = await client.until(lambda f: f["type"] in ("state", "ack", "error"))
    assert again == {"type": "ack", "action_id": "ride", "seq": seq + 1, "duplicate": True}
    assert await db(lambda: Action.objects.filter(match=match, actor="human").count())() == 1
    await client.close()


async def test_an_act_is_bounded_once(monkeypatch):
    """protocol.check_action runs once per act (in the service), not in the socket too."""
    from matches import protocol

    checked = []
    real = protocol.check_action

    def counting(action):
        checked.append(action)
        return real(action)

    monkeypatch.setattr(protocol, "check_action", counting)
    match, token = await make(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    act = {"type": "act", "action": {"type": "draw"}, "action_id": "once", "seq": client.seq}
    await client.send(act)
    await client.until(lambda f: f["type"] == "ack")
    assert checked == [{"type": "draw"}]
    await client.send({**act, "action": {"type": "draw", "n": 2**60}, "action_id": "big"})
    refused = await client.until(lambda f: f["type"] == "error")
    assert (refused["code"], refused["ref"], "view" in refused) == ("bad_message", "big", False)
    await client.close()


async def test_ack_in_state_must_be_a_boolean():
    match, token = await make(mode="cpu")
    for value in ("yes", None, 1):
        client = Client(match.id, token)
        await client.comm.connect()
        await client.send({"type": "hello", "v": 1, "token": token, "ack_in_state": value})
        assert (await client.recv())["code"] == "bad_message"
        await client.close()


BAD_FRAMES = [
    ("not json", "bad_json"),
    ('{"type": "act", "action": NaN}', "bad_json"),
    ("[1, 2]", "bad_message"),
    ('"hello"', "bad_message"),
    ('{"kind": "act"}', "bad_message"),
    ('{"type": 3}', "bad_message"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "act", "action_id": "x"}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "has space"}', "bad_message"),
    ('{"type": "act", "action": "draw", "action_id": "x"}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "x", "seat": "0"}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "x", "seat": true}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "x", "seat": 1}', "not_your_seat"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "x", "seq": -1}', "bad_message"),
    ('{"type": "act", "action": {"type": "draw"}, "action_id": "y", "seq": 99}', "stale"),
    ('{"type": "act", "action": {"type": "fly"}, "action_id": "z"}', "invalid_action"),
    (
        '{"type": "act", "action": {"type": "play", "card": "no"}, "action_id": "w"}',
        "illegal_action",
    ),
    ('{"type": "act", "action": {"type": ["x"]}, "action_id": "v"}', "invalid_action"),
    ('{"type": "resync", "since": "zero"}', "bad_message"),
    ('{"type": "ping", "t": {"a": 1}}', "bad_message"),
    ('{"type": "resign", "seat": 1}', "not_your_seat"),  # the CPU's seat, not the caller's
    ('{"type": "start"}', "not_waiting"),
    ('{"type": "hello", "v": 1}', "bad_message"),  # only once
    ("[" * 5000 + "]" * 5000, "frame_too_large"),
    ("[" * 2000 + "]" * 2000, "bad_json"),  # deep nesting
]


async def test_bad_input_gets_an_error_frame_and_everything_survives(settings):
    settings.MATCHES_RATE_BURST = 1000
    match, token = await make(mode="cpu", players=3)
    client = Client(match.id, token)
    await client.connect()
    start_seq = client.seq
    for text, code in BAD_FRAMES:
        await client.send_raw(text)
        frame = await client.until(lambda f: f["type"] == "error")
        assert frame["code"] == code, text[:60]
        assert isinstance(frame["message"], str) and frame["message"]
        if code in ("stale", "invalid_action", "illegal_action"):
            assert frame["seq"] == start_seq and frame["view"]["hand"] is not None
    await client.comm.send_to(bytes_data=b"\x00\x01")
    assert (await client.until(lambda f: f["type"] == "error"))["code"] == "binary_not_supported"
    # Nothing changed, and the connection still plays.
    assert (await db(Match.objects.get)(pk=match.id)).seq == start_seq
    await client.send({"type": "act", "action": {"type": "draw"}, "action_id": "ok"})
    assert (await client.until(lambda f: f["type"] in ("ack", "error")))["type"] == "ack"
    await client.close()


async def test_messages_before_hello_and_unknown_matches():
    match, token = await make(mode="cpu")
    client = Client(match.id, token)
    await client.comm.connect()
    await client.send({"type": "act", "action": {"type": "draw"}, "action_id": "early"})
    assert (await client.recv())["code"] == "hello_first"
    await client.send({"type": "hello", "v": 2})
    assert (await client.recv())["code"] == "unsupported_version"
    await client.close()
    ghost = Client("00000000-0000-4000-8000-000000000000")
    await ghost.comm.connect()
    await ghost.send({"type": "hello", "v": 1})
    assert (await ghost.recv())["code"] == "not_found"
    await ghost.close()


async def test_wrong_token_and_spectators_cannot_act():
    match, _token = await make(mode="cpu")
    wrong = Client(match.id, "x" * 43)
    await wrong.comm.connect()
    await wrong.send({"type": "hello", "v": 1, "token": "x" * 43})
    assert (await wrong.recv())["code"] == "bad_token"
    await wrong.close()
    watcher = Client(match.id)
    welcome = await watcher.connect()
    assert welcome["spectator"] is True and welcome["seats"] == []
    assert watcher.view["hand"] is None  # the spectator view
    await watcher.send({"type": "act", "action": {"type": "draw"}, "action_id": "s1"})
    assert (await watcher.until(lambda f: f["type"] == "error"))["code"] == "spectator"
    await watcher.send({"type": "act", "action": {"type": "draw"}, "action_id": "s2", "seat": 0})
    assert (await watcher.until(lambda f: f["type"] == "error"))["code"] == "spectator"
    assert (await db(Match.objects.get)(pk=match.id)).seq == 1
    await watcher.close()


async def test_the_seat_cookie_authenticates_the_socket():
    match, token = await make(mode="cpu")
    client = Client(match.id, headers=[(b"cookie", f"seat_token={token}".encode())])
    welcome = await client.connect()
    assert welcome["seats"] == [0]
    await client.close()


async def test_flood_is_rate_limited_and_the_connection_survives(settings, monkeypatch):
    settings.MATCHES_RATE_PER_S = 5
    settings.MATCHES_RATE_BURST = 10
    now = [1000.0]  # the rate limit's clock, moved by the test only
    monkeypatch.setattr(consumers, "clock", lambda: now[0])
    match, token = await make(mode="cpu")
    client = Client(match.id, token)
    await client.connect()  # the hello took one of the 10
    for i in range(60):
        await client.send({"type": "ping", "t": i})
    # A dropped act is named within a second: once it is, every ping before it was handled.
    await client.send({"type": "act", "action": {"type": "draw"}, "action_id": "marker"})
    told = await client.until(lambda f: f.get("code") == "rate_limited" and f["dropped"])
    assert told["dropped"] == ["marker"] and told["ref"] == "marker"
    pongs = [f["t"] for f in client.frames if f["type"] == "pong"]
    limited = [f for f in client.frames if f.get("code") == "rate_limited"]
    assert pongs == list(range(9))  # the burst, then nothing while time stood still
    assert len(limited) == 2  # one notice for the 51 pings dropped, one naming the act
    now[0] += 1  # a second later: 5 more frames allowed
    await client.send({"type": "ping", "t": "after"})
    assert (await client.until(lambda f: f["type"] == "pong"))["t"] == "after"
    await client.close()


async def test_an_impossible_touch_is_told_with_its_reason():
    """The reason the log's room line records comes with the error frame too."""
    settings = {"mode": "competitive", "memorise_seconds": 0}
    match, token = await db(lambda: services.create_match("karuta", settings, "friend"))()
    await db(lambda: services.join(match.invite_code))()
    client = Client(match.id, token)
    await client.connect()
    _m, state = await db(load)(match.id)
    assert state["reading"]["since"] < -1000  # the reading's t = 0 is seconds away
    card = state["sides"][0][0][0]
    touch = {"type": "touch", "card": card, "t": 0}  # claims a moment still to come
    await client.send({"type": "act", "action_id": "early", "action": touch})
    error = await client.until(lambda f: f["type"] == "error")
    assert error["code"] == "impossible_touch" and error["reason"] == "future"
    assert error["ref"] == "early"
    # Other refusals name no reason.
    await client.send({"type": "act", "action_id": "bad", "action": {"type": "nonsense"}})
    error = await client.until(lambda f: f["type"] == "error")
    assert error["ref"] == "bad" and "reason" not in error
    await client.close()


async def test_error_messages_follow_the_connection_language():
    match, token = await make(mode="cpu")
    client = Client(match.id, token, headers=[(b"cookie", b"django_language=en")])
    await client.connect()
    await client.send({"type": "teleport"})
    assert (await client.recv())["message"] == "Unknown message type."
    await client.close()
    ja = Client(match.id, token)
    await ja.connect()
    await ja.send({"type": "teleport"})
    text = (await ja.recv())["message"]
    assert text != "Unknown message type." and text
    await ja.close()
    # Accept-Language is weighed as a page's is (q-values): English is wanted most here.
    weighed = Client(match.id, token, headers=[(b"accept-language", b"ja;q=0.2, en;q=0.9")])
    await weighed.connect()
    await weighed.send({"type": "teleport"})
    assert (await weighed.recv())["message"] == "Unknown message type."
    await weighed.close()


async def test_resync_sends_what_was_missed():
    match, token = await make(mode="hotseat")
    client = Client(match.id, token)
    await client.connect()
    for i in range(3):
        seat = client.room["to_act"][0]
        await client.send(
            {"type": "act", "action": {"type": "draw"}, "action_id": f"r{i}", "seat": seat}
        )
        await client.until(lambda f: f["type"] == "ack")
    await client.send({"type": "resync", "since": 1})
    frame = await client.until(lambda f: f["type"] == "state")
    assert [e["seq"] for e in frame["events"]] == [2, 3, 4]
    # Seat 1 is to act and has not claimed the device: every draw shows as a placeholder.
    assert frame["handoff"] == {"seat": 1} and frame["view"] is None
    kinds = [ev["type"] for e in frame["events"] for ev in e["events"]]
    assert kinds == ["drew", "drew", "drew"]
    assert "card-" not in json.dumps(frame)
    # Claimed: the log is seat 1's — its own draw with the card, the others' without.
    await client.send({"type": "reveal", "seat": 1})
    await client.until(lambda f: f["type"] == "state" and f["view_seat"] == 1)
    await client.send({"type": "resync", "since": 1})
    frame = await client.until(lambda f: f["type"] == "state")
    seen = {e["seq"]: [ev["type"] for ev in e["events"]] for e in frame["events"]}
    assert seen == {2: ["drew"], 3: ["you_drew"], 4: ["drew"]}
    await client.send({"type": "ping", "t": 1})
    assert (await client.until(lambda f: f["type"] == "pong"))["seq"] == 4
    await client.close()


async def test_friend_room_over_the_socket(settings):
    match, token = await make(mode="friend", players=3)
    owner = Client(match.id, token)
    await owner.connect()
    assert owner.room["status"] == "waiting" and owner.room["invite_code"] == match.invite_code
    _m, _seat, guest_token = await db(services.join)(match.invite_code)
    guest = Client(match.id, guest_token)
    await guest.connect()
    frame = await owner.until(
        lambda f: f["type"] in ("state", "room") and f["match"]["seats"][1]["connected"]
    )
    assert frame["match"]["seats"][1]["taken"]
    await guest.send({"type": "start"})
    assert (await guest.until(lambda f: f["type"] == "error"))["code"] == "not_owner"
    await guest.send({"type": "invite"})
    fresh = await guest.until(lambda f: f["type"] == "state")
    assert fresh["match"]["invite_code"] != match.invite_code
    await owner.send({"type": "start"})
    await owner.until(lambda f: f["type"] == "state" and f["match"]["status"] == "playing")
    assert owner.room["seats"][2]["kind"] == "cpu"
    watcher = Client(match.id)
    await watcher.connect()
    assert "invite_code" not in watcher.room
    await asyncio.gather(
        play_turns(owner, [0], random.Random(3)), play_turns(guest, [1], random.Random(4))
    )
    await watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished")
    # Play again: one next match, offered to everyone, the spectator included.
    nxt, _new_token = await db(services.rematch)(match.id, token)
    for client in (owner, guest, watcher):
        frame = await client.until(lambda f: f["type"] == "state" and f["match"]["next_match"])
        assert frame["match"]["next_match"] == str(nxt.pk)
    for client in (owner, guest, watcher):
        await client.close()


async def test_fuzz_thousands_of_bad_frames_then_the_match_plays_to_the_end(settings):
    settings.MATCHES_RATE_BURST = 100000
    settings.MATCHES_RATE_PER_S = 100000
    match, token = await make(mode="cpu", players=2, turns=16)
    client = Client(match.id, token)
    await client.connect()
    rng = random.Random(20261129)
    good = [
        {"type": "act", "action": {"type": "draw"}, "action_id": "f"},
        {"type": "resync", "since": 0},
        {"type": "ping", "t": 1},
        {"type": "hello", "v": 1, "token": token},
        {"type": "leave", "seat": 0},
        {"type": "act", "action": {"type": "play", "card": "card-0"}, "action_id": "g", "seat": 0},
    ]
    atoms = [None, True, -1, 0, 2**40, 1.5, "", "x" * 300, [], {}, [1, [2]], {"type": "draw"}]

    def mutate(message):
        message = json.loads(json.dumps(message))
        for _ in range(rng.randint(1, 3)):
            key = rng.choice([*message.keys(), "type", "action", "seat", "seq", "zz"])
            if rng.random() < 0.2:
                message.pop(key, None)
            else:
                message[key] = copy.deepcopy(rng.choice(atoms))
            if isinstance(message.get("action"), dict) and rng.random() < 0.5:
                message["action"][rng.choice(["type", "card", "seat"])] = copy.deepcopy(
                    rng.choice(atoms)
                )
        return message

    sent = 0
    for i in range(3000):
        roll = rng.random()
        if roll < 0.7:
            text = json.dumps(mutate(rng.choice(good)))
        elif roll < 0.85:
            base = json.dumps(rng.choice(good))
            cut = rng.randrange(len(base))
            text = base[:cut] + rng.choice(["", "}", "\x00", "\\", '"', "ÿ"]) + base[cut + 1 :]
        else:
            text = "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 80)))
        # Some mutants are real moves ("draw"): fine, the match must stay consistent.
        await client.send_raw(text)
        sent += 1
        if i % 200 == 0:
            await client.drain(quiet=0.05)
    await client.drain(quiet=0.5)
    assert sent == 3000
    errors = [f for f in client.frames if f["type"] == "error"]
    assert len(errors) > 1000
    assert {e["code"] for e in errors} <= set(__import__("matches.errors").errors.MESSAGES)
    assert "server_error" not in {e["code"] for e in errors}
    # The match is intact and still plays to the end over the same connection.
    await client.send({"type": "resync"})
    await client.until(lambda f: f["type"] == "state")
    if client.room["status"] != "finished":
        await play_turns(client, [0], random.Random(9))
    final = await db(Match.objects.get)(pk=match.id)
    assert final.status == "finished"
    state = await db(services.replay)(final)
    assert state == final.state


async def test_server_state_is_checked_against_the_log_after_consumer_play():
    match, token = await make(mode="cpu", players=4, turns=20)
    client = Client(match.id, token)
    await client.connect()
    await play_turns(client, [0], random.Random(11))
    final, _state = await db(load)(match.id)
    assert (await db(services.replay)(final)) == final.state
    await client.close()


async def test_a_dropped_player_is_played_by_the_cpu_after_the_grace_then_returns(settings):
    settings.MATCHES_DISCONNECT_GRACE_S = 0.4
    match, token = await make(mode="friend", players=2, turns=30)
    _m, _seat, guest_token = await db(services.join)(match.invite_code)
    red, blue = Client(match.id, token), Client(match.id, guest_token)
    await red.connect()
    await blue.connect()
    await red.send({"type": "act", "action": {"type": "draw"}, "action_id": "r1"})
    await blue.until(lambda f: f["type"] == "state" and f["match"]["to_act"] == [1])
    await blue.close()  # blue drops on its own turn
    room = await red.until(
        lambda f: f["type"] in ("room", "state") and not f["match"]["seats"][1]["connected"]
    )
    assert room["match"]["due_in_ms"] is not None
    frame = await red.until(
        lambda f: f["type"] == "state" and any(e["actor"] == "timeout" for e in f["events"]), 5
    )
    assert [e["seat"] for e in frame["events"] if e["actor"] == "timeout"] == [1]
    # Blue comes back with the token and the seq it saw: its seat again, nothing missed.
    back = Client(match.id, guest_token)
    await back.connect(since=blue.seq)
    seen = [e["seq"] for f in back.frames if f["type"] == "state" for e in f["events"]]
    assert seen == list(range(blue.seq + 1, back.seq + 1))
    await red.until(
        lambda f: f["type"] in ("room", "state") and f["match"]["seats"][1]["connected"]
    )
    if red.room["to_act"] == [0]:
        await red.send({"type": "act", "action": {"type": "draw"}, "action_id": "r2"})
    turn = await back.until(lambda f: f["type"] == "state" and f["match"]["to_act"] == [1])
    # A player who is here: nothing is scheduled for their turn, in the frame or the row.
    assert turn["match"]["due_in_ms"] is None
    assert (await db(Match.objects.get)(pk=match.id)).due_at is None
    await back.send({"type": "act", "action": {"type": "draw"}, "action_id": "b-back"})
    assert (await back.until(lambda f: f["type"] in ("ack", "error")))["type"] == "ack"
    timeouts = await db(lambda: Action.objects.filter(match=match, actor="timeout").count())()
    assert timeouts == 1
    await red.close()
    await back.close()
