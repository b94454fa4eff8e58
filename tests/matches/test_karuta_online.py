"""Karuta with friends online, through the real server (daphne) and real WebSockets
(issue 18): the reading released just in time to every connection, the CPU's plan never
early, and friend games played to the end by scripted clients with identical logs.

The friend games go through the delaying proxy (tests/support/delay_proxy.py): each
player on a link of its own, from 5 to 80 ms one way with jitter, as friends far apart
would be; the fairness harness (bench/bench_karuta_fairness.py) measures who wins. Each
proxy runs in a process of its own: in this one, a full garbage collection of the bots'
frames stalls the event loop for ~100 ms, and a proxy sharing it would hold a touch that
much longer than its link does (an honest touch refused as late).
"""

from __future__ import annotations

import asyncio

import pytest

import gamekit
from matches import services
from matches.models import Match
from tests.matches.karutabot import KarutaBot
from tests.support.delay_proxy import Link, ProcessDelayProxy

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

LEAD = 150  # MATCHES_RELEASE_LEAD_MS's default, which the test server runs with
SLACK = 1  # ms: the server floors epoch ms
FAST = {"pace": 20, "memorise_seconds": 0, "poem_set": 1, "lower_verse_twice": False}


def ws(asgi_server, match) -> str:
    return f"{asgi_server.ws_url}/play/{match.id}/ws/"


def check_released(bot: KarutaBot, jitter_ms: float = 0) -> int:
    """No state frame this bot received held a kana, the poem (or what names it) or a touch
    before its time (minus the lead for kana and poem): checked against the receipt time,
    which is after the server sent it. Returns how many reading frames were checked.

    Behind a delaying link the server sends the reading earlier by the link's measured
    one-way delay, so that it *arrives* the lead early; the delay is measured from the
    quickest round trips, so a frame may arrive earlier than that by up to the jitter."""
    lead = LEAD + jitter_ms
    checked = 0
    for got, frame in bot.received:
        for entry in frame["events"]:
            for event in entry["events"]:
                if event["type"] == "reading":
                    assert "poem" not in event
                if event["type"] == "touch":
                    assert set(event) == {"type", "seat"}
        view = frame["view"]
        if not view or not view.get("reading"):
            continue
        checked += 1
        r = view["reading"]
        zero = frame["at"] + r["t0"]  # the reading's t = 0 in server epoch ms
        kana = r["kana"] + (r["shimo"]["kana"] if r["shimo"] else [])
        for _text, t, _said in kana:
            assert got + SLACK >= zero + t - lead, (bot.name, r["number"], t)
        named = [r[k] for k in ("poem", "kimariji", "static_kimariji", "decided", "close", "end")]
        if any(v is not None for v in named):
            assert all(v is not None for v in named)
            assert got + SLACK >= zero + r["decided"] - lead, (bot.name, r["number"])
        else:
            assert not r["shimo"] or (r["shimo"]["end"] is None and r["shimo"]["again"] is None)
        for seat, _card, t in r["touches"]:
            assert got + SLACK >= zero + t, (bot.name, "touch", seat, t)
        # The voice: an upper-verse clip starts on its first kana and goes with it; the
        # lower verse's clips only with the poem; the preamble's are public.
        for clip in r.get("voice", []):
            if clip["part"] == "kami":
                assert got + SLACK >= zero + clip["start"] - lead, (bot.name, "clip", clip)
            elif clip["part"] in ("shimo_read", "shimo_again"):
                assert r["poem"] is not None, (bot.name, "clip before the poem", clip)
            else:
                assert clip["part"] in ("joka", "joka_shimo", "shimo"), clip
        assert set(view["to_act"]) == set(r["active"]) - set(r["done"])
    return checked


def against_cpus(asgi_server, settings, *, readings: int, timeout: float) -> list[KarutaBot]:
    """A game against 名人 CPUs watched by the player, a second socket of the same player
    and a spectator, until `readings` readings are over: the three bots, in that order."""
    match, token = services.create_match("karuta", settings, "cpu", "meijin")
    player = KarutaBot(ws(asgi_server, match), token, name="player", reaction=(350, 700))
    twin = KarutaBot(ws(asgi_server, match), token, name="twin", play=False)
    watcher = KarutaBot(ws(asgi_server, match), None, name="watcher")
    bots = [player, twin, watcher]

    async def run():
        for bot in bots:
            await bot.open()
        try:
            await asyncio.gather(*(bot.play(timeout=timeout, readings=readings) for bot in bots))
        finally:
            for bot in bots:
                await bot.close()

    asyncio.run(run())
    return bots


def test_nothing_reaches_any_connection_before_its_time_against_cpus(asgi_server):
    """A chirashi game against two 名人 CPUs: the player, a second socket of the same player
    and a spectator each get only what was due; the CPUs' touches appear only once their
    time has come."""
    settings = {**FAST, "mode": "chirashi", "players": 3}
    bots = against_cpus(asgi_server, settings, readings=6, timeout=120)
    watcher = bots[-1]
    for bot in bots:
        assert check_released(bot) > 20
        assert not bot.refused(), bot.errors  # a pass may lose to the server's (karutabot.py)
    cpu_touches = {
        (r["number"], s, t)
        for _got, f in watcher.received
        if f["view"] and (r := f["view"]["reading"])
        for s, _c, t in r["touches"]
        if s != 0
    }
    assert len(cpu_touches) >= 3  # the CPUs did touch, each seen only in its time
    # Each reading's frames grew part by part: kana came in many frames, not at once. At 50 ms
    # a kana, 名人 CPUs whose form varies by game (issue 27) end a reading 0.1-0.6 s after its
    # deciding kana: the longest of 6 readings took 7-11 frames in runs, one frame if sent whole.
    parts = [f.get("part", 0) for _g, f in watcher.received]
    assert max(parts) >= 6


def voiced(bot: KarutaBot) -> set[str]:
    """The ids of the upper-verse clips a bot was sent."""
    return {
        clip["id"]
        for _got, frame in bot.received
        if frame["view"] and (r := frame["view"]["reading"])
        for clip in r.get("voice", [])
        if clip["part"] == "kami"
    }


@pytest.mark.parametrize("mode", ["competitive", "chirashi"])
def test_no_clip_reaches_a_player_or_a_spectator_before_its_kana(asgi_server, mode):
    """At a voiced pace, against a CPU: each upper-verse clip reaches the player, a second
    socket and a spectator no earlier than its first kana's time minus the lead, the lower
    verse's only with the poem; and the spectator is voiced as the players are."""
    from games.karuta import voice

    assert voice.available(), "the voice is built and committed (manage.py build_voice)"
    players = 2 if mode == "competitive" else 3
    settings = {**FAST, "mode": mode, "players": players, "pace": "very_fast"}
    bots = against_cpus(asgi_server, settings, readings=3, timeout=90)
    for bot in bots:
        assert check_released(bot) > 10
        assert len(voiced(bot)) >= 3, bot.name  # the upper verses did come with their clips


def test_friends_play_competitive_and_chirashi_to_the_end_with_identical_logs(asgi_server):
    rooms = []
    for settings, players in (
        ({**FAST, "mode": "competitive"}, 2),
        ({**FAST, "mode": "chirashi", "players": 3}, 3),
    ):
        match, token = services.create_match("karuta", settings, "friend")
        tokens = [token] + [services.join(match.invite_code)[2] for _ in range(players - 1)]
        rooms.append((match, settings["mode"], tokens))
    links = [Link(5, 5), Link(80, 20), Link(35, 10)]  # one way, each direction: ms, jitter
    logs: dict[str, dict] = {}
    everyone: list[KarutaBot] = []
    proxies: list[ProcessDelayProxy] = []

    async def run():
        for bot in everyone:
            await bot.open()
        try:
            await asyncio.gather(*(bot.play(timeout=240) for bot in everyone))
            for bot in everyone:
                logs[bot.name] = await bot.full_log()
        finally:
            for bot in everyone:
                await bot.close()

    try:
        for match, mode, tokens in rooms:
            for i, token in enumerate(tokens):
                proxy = ProcessDelayProxy(asgi_server.port, up=links[i], down=links[i], seed=i)
                proxies.append(proxy)
                url = f"ws://127.0.0.1:{proxy.start()}/play/{match.id}/ws/"
                everyone.append(KarutaBot(url, token, name=f"{mode}{i}", seed=i))
        asyncio.run(run())
    finally:
        for proxy in proxies:
            proxy.stop()
    for match, mode, _tokens in rooms:
        bots = [bot for bot in everyone if bot.name.startswith(mode)]
        match = Match.objects.get(pk=match.id)
        game = gamekit.registry.get("karuta")
        assert match.status == Match.Status.FINISHED
        assert game.dump_state(services.replay(match)) == match.state
        stored = {row.seq: row.events for row in match.actions.all()}
        refused = [row.action for row in match.actions.filter(kind="room")]
        quiet = sum(1 for a in refused if a.get("type") == "refused" and a.get("quiet"))
        print(mode, "refusals logged:", quiet, "quiet,", refused.count({"type": "refused"}), "loud")
        for bot in bots:
            assert logs[bot.name] == stored  # karuta has no private events: all alike
            live = bot.log
            assert {seq: live[seq] for seq in live} == {seq: stored[seq] for seq in live}
            assert check_released(bot, links[int(bot.name[-1])].jitter_ms) > 10
        results = [e for events in stored.values() for e in events if e["type"] == "result"]
        assert len(results) >= 5 and any(r["taker"] is not None for r in results)
        # Every touch of these honest players was accepted, but for a few as late: stalls of
        # the loaded machine past the judge's margin (see test_fairness.py), at most 1 in 10.
        # CI's timing pass runs this beside other servers on two cores: 2 of ~40 there at
        # 8fc420c and 3 of 40 at a553636 (6 Dec), none for any other reason.
        errors = [e for bot in bots for e in bot.errors]
        impossible = [e.get("reason") for e in errors if e["code"] == "impossible_touch"]
        touched = match.actions.filter(actor="human", action__type="touch").count()
        assert set(impossible) <= {"late"}, impossible
        assert len(impossible) <= max(1, (touched + len(impossible)) // 10), (impossible, touched)
