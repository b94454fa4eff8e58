"""Issue 14's defects, each over a real socket (the ASGI stack through WebsocketCommunicator)
or through the services: frames the server must refuse, a seat that left, payload bounds,
invites after the end, play again by spectators, the rate limit naming what it dropped,
presence leases and the sweeper."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

import gamekit
from matches import autoplay, services
from matches.driver import driver
from matches.errors import MatchError
from matches.models import Action, Match, Seat
from tests.matches.helpers import Client, create

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]

db = database_sync_to_async


async def error_for(client: Client, text: str) -> dict:
    await client.send_raw(text)
    return await client.until(lambda f: f["type"] == "error")


# --- frames the server must refuse ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "ping", "t": "\\ud800"}',  # a lone surrogate, escaped in the JSON
        '{"type": "ping", "t": "a\\u0000b"}',  # NUL
        '{"type": "ping", "t": 1e400}',  # overflows to inf: never echoed
        '{"type": "ping", "t": 12345678901234567890}',  # beyond 53 bits: a browser rounds it
        '{"type": "act", "action_id": "a1", "action": {"type": "draw", "n": 1e400}}',
        '{"type": "act", "action_id": "a2", "action": {"type": "draw", "n": 1000000000000000000000000000000}}',  # noqa: E501
        '{"type": "act", "action_id": "a3", "action": {"type": "draw", "s": "x\\u0000"}}',
        '{"type": "act", "action_id": "a4", "action": {"type": "draw", "s": "\\udc00"}}',
        '{"type": "act", "action_id": "a5", "action": {"type": "draw", "d": '
        + "[" * 600
        + "]" * 600
        + "}}",
        '{"type": "act", "action_id": "a6", "action": {"type": "draw", "d": [[[[[[[1]]]]]]]}}',
        '{"type": "act", "action_id": "a7", "action": {"type": "draw", "s": "' + "x" * 600 + '"}}',
    ],
)
async def test_frames_that_cannot_be_stored_or_echoed_are_bad_messages(text, settings):
    settings.MATCHES_MAX_FRAME_BYTES = 8192
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    seq = client.seq
    frame = await error_for(client, text)
    assert frame["code"] == "bad_message"
    assert (await db(Match.objects.get)(pk=match.id)).seq == seq  # nothing stored
    # The connection carries on, and every frame it got was valid JSON (no Infinity).
    await client.send({"type": "ping", "t": 1.5})
    pong = await client.until(lambda f: f["type"] == "pong")
    assert pong["t"] == 1.5
    await client.close()


async def test_a_boolean_version_is_not_version_one():
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.comm.connect()
    await client.send({"type": "hello", "v": True, "token": token})
    assert (await client.recv())["code"] == "unsupported_version"
    await client.close()


async def test_raw_text_is_checked_as_the_server_will_send_it():
    match, token = await db(create)(mode="cpu")
    client = Client(match.id, token)
    await client.connect()
    # The server never writes Infinity: a pong's echo is plain JSON a browser can parse.
    await client.send_raw('{"type": "ping", "t": 9007199254740991}')
    raw = await client.comm.receive_from(timeout=5)
    assert json.loads(raw, parse_constant=lambda name: pytest.fail(name))["t"] == 2**53 - 1
    await client.close()


# --- a seat that left --------------------------------------------------------------------


async def three_player_room() -> tuple[Match, list[str]]:
    def setup():
        match, token = create(mode="friend", players=3, turns=30)
        tokens = [token]
        for _ in range(2):
            tokens.append(services.join(match.invite_code)[2])
        return Match.objects.get(pk=match.id), tokens

    return await db(setup)()


async def test_a_seat_that_left_cannot_act_or_leave_again_from_another_socket():
    match, tokens = await three_player_room()
    a, b = Client(match.id, tokens[2]), Client(match.id, tokens[2])
    await a.connect()
    await b.connect()
    await a.send({"type": "leave"})
    await b.until(
        lambda f: f["type"] in ("state", "room") and f["match"]["seats"][2]["kind"] == "cpu"
    )
    assert not b.room["seats"][2]["yours"]
    assert "invite_code" not in b.room
    await b.send({"type": "act", "action": {"type": "draw"}, "action_id": "ghost", "seat": 2})
    refusal = await b.until(lambda f: f["type"] == "error")
    assert refusal["code"] in ("spectator", "not_your_seat")
    await b.send({"type": "leave"})
    assert (await b.until(lambda f: f["type"] == "error"))["code"] in ("spectator", "not_allowed")
    await b.send({"type": "invite"})
    assert (await b.until(lambda f: f["type"] == "error"))["code"] == "spectator"
    rows = await db(lambda: list(Action.objects.filter(match=match, kind="room")))()
    assert [r.action["type"] for r in rows].count("leave") == 1
    human_moves = await db(
        lambda: Action.objects.filter(match=match, seat=2, actor="human", kind="game").count()
    )()
    assert human_moves == 0
    await a.close()
    await b.close()


def test_the_services_check_held_seats_against_the_match():
    match, _token = create(mode="friend", players=3, turns=30)
    services.join(match.invite_code)
    services.join(match.invite_code)
    services.leave(match.id, [2])
    with pytest.raises(MatchError) as refused:
        services.leave(match.id, [2])
    assert refused.value.code == "spectator"
    with pytest.raises(MatchError):
        services.submit_action(match.id, [2], {"type": "draw"}, seat=2)
    assert Action.objects.filter(match=match, action__type="leave").count() == 1


# --- payloads: only the keys a game declares are kept ---------------------------------------


class Declared(gamekit.registry.get("hiddenhand").__class__):
    slug = "declared"
    action_schema = {"draw": (), "play": ("card",)}


@pytest.fixture
def declared():
    game = gamekit.registry.register(Declared)
    yield game
    gamekit.registry.unregister(game.slug)


def test_a_games_action_schema_decides_what_is_logged(declared):
    match, _token = create("declared", mode="hotseat")
    services.submit_action(
        match.id, [0, 1], {"type": "draw", "note": "x" * 100, "extra": [1, 2]}, seat=0
    )
    row = Action.objects.get(match=match, kind="game")
    assert row.action == {"type": "draw"}
    with pytest.raises(gamekit.InvalidActionError):
        services.submit_action(match.id, [0, 1], {"type": "dance"}, seat=1)


def test_without_a_schema_every_key_is_kept_but_bounded():
    match, _token = create(mode="hotseat")
    services.submit_action(match.id, [0, 1], {"type": "draw", "ms": 120}, seat=0)
    assert Action.objects.get(match=match, kind="game").action == {"type": "draw", "ms": 120}
    with pytest.raises(MatchError) as refused:
        services.submit_action(match.id, [0, 1], {"type": "draw", "n": float("inf")}, seat=1)
    assert refused.value.code == "bad_message"


# --- rooms after the end ------------------------------------------------------------------


async def finished_friend_match() -> tuple[Match, str, str]:
    def setup():
        match, token = create(mode="friend", players=2, turns=1)
        _m, _seat, guest = services.join(match.invite_code)
        services.submit_action(match.id, [0], {"type": "draw"})
        return Match.objects.get(pk=match.id), token, guest

    return await db(setup)()


async def test_invite_after_the_end_is_refused_and_logs_nothing():
    match, token, _guest = await finished_friend_match()
    assert match.status == Match.Status.FINISHED
    client = Client(match.id, token)
    await client.connect()
    seq = client.seq
    for _ in range(3):
        frame = await error_for(client, '{"type": "invite"}')
        assert frame["code"] == "finished"
    assert (await db(Match.objects.get)(pk=match.id)).seq == seq
    await client.close()


def test_only_seated_players_start_the_next_match():
    match, token = create(mode="friend", players=2, turns=1)
    services.join(match.invite_code)
    services.submit_action(match.id, [0], {"type": "draw"})
    with pytest.raises(MatchError) as refused:
        services.rematch(match.id, None)
    assert refused.value.code == "spectator"
    assert Match.objects.get(pk=match.id).next_match_id is None
    nxt, _token = services.rematch(match.id, token)
    watcher_nxt, watcher_token = services.rematch(match.id, None)  # then shown the way
    assert watcher_nxt.pk == nxt.pk and watcher_token is None


# --- the rate limit names what it dropped ------------------------------------------------


async def test_rate_limited_names_the_dropped_actions(settings):
    settings.MATCHES_RATE_PER_S = 0.001  # no refill during the test
    settings.MATCHES_RATE_BURST = 3
    match, token = await db(create)(mode="hotseat", turns=50)
    client = Client(match.id, token)
    await client.connect()  # the hello takes one token
    for i in range(6):
        await client.send(
            {"type": "act", "action": {"type": "draw"}, "action_id": f"x{i}", "seat": 0}
        )
    told: list[str] = []
    while len(told) < 4:  # x0, x1 are handled; x2..x5 dropped, told within about a second
        frame = await client.until(lambda f: f.get("code") == "rate_limited", timeout=5)
        told += frame["dropped"]
        assert frame.get("ref") in (frame["dropped"] or [None])
    assert told == ["x2", "x3", "x4", "x5"]
    await client.close()


# --- presence expires by itself --------------------------------------------------------------


async def wait_renewals(seat: Seat, count: int, at_least_s: float) -> None:
    """Wait until this process has renewed the seat's lease `count` times (its `last_seen`
    in the database moved on), for at least `at_least_s`."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    last_seen = db(lambda: Seat.objects.get(pk=seat.pk).last_seen)
    seen = {await last_seen()}
    while len(seen) <= count or loop.time() - start < at_least_s:
        await asyncio.sleep(0.01)
        seen.add(await last_seen())
        assert loop.time() - start < 10, "the heartbeat did not run"


async def test_an_open_socket_keeps_its_seat_without_pings(settings):
    settings.MATCHES_PRESENCE_HEARTBEAT_S = 0.05
    settings.MATCHES_PRESENCE_STALE_S = 0.3
    settings.MATCHES_DISCONNECT_GRACE_S = 0.3
    match, token = await db(create)(mode="friend", players=2, turns=30)
    _m, _seat, guest = await db(services.join)(match.invite_code)
    red, blue = Client(match.id, token), Client(match.id, guest)
    await red.connect()
    await blue.connect()
    await red.send({"type": "act", "action": {"type": "draw"}, "action_id": "r1"})
    await blue.until(lambda f: f["type"] == "state" and f["match"]["to_act"] == [1])
    # Blue sends nothing (a throttled tab) for more than the lease and the grace together.
    await wait_renewals(await db(Seat.objects.get)(match=match, index=1), 12, at_least_s=0.7)

    def blue_state():
        m = Match.objects.get(pk=match.id)
        seat = Seat.objects.get(match=m, index=1)
        return services.absent_since(m, seat, timezone.now()), m.seq

    absent, seq = await db(blue_state)()
    assert absent is None and seq == blue.seq
    await blue.send({"type": "act", "action": {"type": "draw"}, "action_id": "b1"})
    assert (await blue.until(lambda f: f["type"] in ("ack", "error")))["type"] == "ack"
    timeouts = await db(lambda: Action.objects.filter(match=match, actor="timeout").count())()
    assert timeouts == 0
    await red.close()
    await blue.close()


def test_by_default_a_dead_servers_players_are_played_for_within_the_grace_and_5_s():
    """Issue 40: with a 6 s grace a server killed for good had its matches go to the CPU
    15.2 s after the crash (the 15 s lease). The worst case is a crash just after a renewal:
    the lease runs out STALE later and the next sweep (every HEARTBEAT) notices; by then the
    grace, counted from that renewal, has passed for any grace of 5 s or more."""
    from matches.clock import disconnect_grace_ms, heartbeat_interval, presence_stale

    noticed_s = presence_stale().total_seconds() + heartbeat_interval()
    for grace_s in (5, 6, disconnect_grace_ms() / 1000):
        assert max(noticed_s, grace_s) <= grace_s + 5
    assert presence_stale().total_seconds() >= 3 * heartbeat_interval()  # not on one miss


def test_a_seat_whose_server_died_counts_as_gone_from_its_last_renewal(settings):
    settings.MATCHES_PRESENCE_STALE_S = 15
    settings.MATCHES_DISCONNECT_GRACE_S = 45
    settings.MATCHES_CPU_DELAY_MS = 0
    match, _token = create(mode="friend", players=2, turns=30)
    services.join(match.invite_code)
    services.presence(match.id, [0], +1)
    services.presence(match.id, [1], +1)  # its server then dies: the count stays at 1
    services.submit_action(match.id, [0], {"type": "draw"})  # blue's turn
    assert Match.objects.get(pk=match.id).due_at is None
    # Blue's turn began 30 s ago; its server died 20 s ago (its last lease renewal).
    now = timezone.now()
    began = int((now - timedelta(seconds=30)).timestamp() * 1000)
    Match.objects.filter(pk=match.pk).update(turns={"1": began, "last": began})
    died = now - timedelta(seconds=20)
    Seat.objects.filter(match=match, index=1).update(last_seen=died)
    services.renew_leases({match.id: [0]})  # red's server is alive
    assert services.expire_leases() == 1
    blue = Seat.objects.get(match=match, index=1)
    assert blue.connections == 0 and blue.disconnected_since == died
    due = Match.objects.get(pk=match.id).due_at
    assert due is not None and abs((due - (died + timedelta(seconds=45))).total_seconds()) < 1
    assert Seat.objects.get(match=match, index=0).connections == 1


def test_a_lease_renewal_renews_exactly_the_seats_held_here(settings):
    """One beat renews many matches in a few statements (matches holding the same seats
    together): each match gets exactly its own seats, whatever the others hold."""
    matches = []
    for _ in range(3):
        match, _token = create(mode="friend", players=2, turns=30)
        services.join(match.invite_code)
        matches.append(match)
    long_ago = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(match__in=matches).update(
        last_seen=long_ago, connections=0, disconnected_since=long_ago
    )
    both, red_only, blue_only = matches
    services.renew_leases({both.id: [0, 1], red_only.id: [0], blue_only.id: [1, 1]})
    renewed = {
        (seat.match_id, seat.index): seat.last_seen > long_ago
        for seat in Seat.objects.filter(match__in=matches)
    }
    assert renewed == {
        (both.id, 0): True,
        (both.id, 1): True,
        (red_only.id, 0): True,
        (red_only.id, 1): False,
        (blue_only.id, 0): False,
        (blue_only.id, 1): True,
    }
    red = Seat.objects.get(match=red_only, index=0)
    assert red.connections == 1 and red.disconnected_since is None
    assert Seat.objects.get(match=red_only, index=1).connections == 0


def test_the_sweeper_goes_on_past_a_match_that_raises(monkeypatch, settings):
    settings.MATCHES_CPU_DELAY_MS = 0
    first, _t = create(mode="cpu")
    second, _t = create(mode="cpu")
    for match in (first, second):
        services.submit_action(match.id, [0], {"type": "draw"})
    Match.objects.update(due_at=timezone.now() - timedelta(seconds=60))
    real = autoplay.advance

    def flaky(match_id, expected_seq=None):
        if str(match_id) == str(first.id):
            raise RuntimeError("a broken match")
        return real(match_id, expected_seq)

    monkeypatch.setattr(autoplay, "advance", flaky)
    assert services.sweep(timedelta(seconds=10)) >= 1
    assert Action.objects.filter(match=second, actor="cpu").exists()
    assert not Action.objects.filter(match=first, actor="cpu").exists()


async def test_a_cpu_timer_that_fires_before_the_move_is_due_is_armed_again(settings):
    """A timer can fire a hair before its move is due (it is armed from whole milliseconds,
    on another clock than the row's). It must arm itself again, not wait for a notice to do
    it: while Redis is down no notice comes, and the sweeper played the CPU's move a second
    late (CI, 2 Dec: pushed after 2.02 s against test_recovery's 2 s)."""
    settings.MATCHES_CPU_DELAY_MS = 300
    match, _token = await db(create)(mode="cpu")
    applied = await db(services.submit_action)(match.id, [0], {"type": "draw"})
    due_at = (await db(Match.objects.get)(pk=match.id)).due_at
    driver.schedule(str(match.id), applied.seq, 0)  # fires now, 300 ms early
    loop = asyncio.get_running_loop()
    started = loop.time()
    while await db(services.seq_of)(match.id) == applied.seq:
        assert loop.time() - started < 3, "the CPU's move was not played"
        await asyncio.sleep(0.02)
    cpu = await db(lambda: Action.objects.get(match=match, actor="cpu"))()
    assert cpu.created >= due_at
