"""Genpei-sen online (issue 41), through a real server (daphne) and real WebSockets: a 2 v 2
friend room of four scripted clients, each joining its team, played to the end with
identical logs (a spectator's too); one client drops after a few readings and the CPU plays
its seat once the disconnect rule's grace has passed (2 s here instead of 45: the rule
itself is tested against a controlled clock in tests/matches). The deal is one whose readings
open with the live and dead cards the test needs (tests/support/genpei.py): a random deal
read about half its cards dead, and the game took 62-88 s (27 s now). Wall-bound (it waits
on readings: 4 CPU s in 27 s), so it runs in the timing pass (tests/timing_modules.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.test import Client
from django.urls import reverse

import gamekit
from matches import services
from matches.models import Action, Match
from records import store
from tests.matches.karutabot import KarutaBot
from tests.matches.test_karuta_online import check_released
from tests.support.genpei import seed_opening
from tests.support.server import AsgiServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GENPEI = {
    "mode": "genpei",
    "teams": [2, 2],
    "pace": 20,
    "memorise_seconds": 0,
    "poem_set": 1,  # 5 cards a side, 10 dead cards: a game of at most 20 readings
    "lower_verse_twice": False,
}
DROP_AFTER = 1  # readings the fourth client plays before it goes
# The readings' order: live cards, and one dead card read well after the grace has passed
# (the CPU playing the dropped seat passes it at the close: the quick clients win every
# race on a live card before the CPU's planned touch), then live cards to the end.
OPENING = "LLLLDLLLLL"


def test_four_friends_play_two_against_two_and_the_cpu_takes_a_dropped_seat():
    server = AsgiServer(extra_env={"MATCHES_DISCONNECT_GRACE_S": "2"})
    server.start()
    try:
        match, token = services.create_match("karuta", GENPEI, "friend")
        Match.objects.filter(pk=match.pk).update(seed=seed_opening(GENPEI, 4, OPENING))
        code = match.invite_code
        tokens = {0: token}
        for group in (1, 0, 1):  # the Heike, the Genji, the Heike: seats 2, 1, 3
            _, seat, seat_token = services.join(code, group=group)
            tokens[seat] = seat_token
        assert sorted(tokens) == [0, 1, 2, 3]
        url = f"{server.ws_url}/play/{match.id}/ws/"
        bots = [KarutaBot(url, tokens[i], name=f"g{i}", seed=i) for i in range(4)]
        spectator = KarutaBot(url, None, name="watcher")
        logs: dict[str, dict] = {}
        dropped_at: list[int] = []

        async def run():
            for bot in [*bots, spectator]:
                await bot.open()
            try:

                async def leaver():
                    await bots[3].play(timeout=120, readings=DROP_AFTER)
                    dropped_at.append(max(bots[3].log))
                    await bots[3].close()

                await asyncio.gather(*(bot.play(timeout=200) for bot in bots[:3]), leaver())
                for bot in [*bots[:3], spectator]:
                    logs[bot.name] = await bot.full_log()
            finally:
                for bot in [*bots[:3], spectator]:
                    await bot.close()

        asyncio.run(run())
    finally:
        server.stop()
    match = Match.objects.get(pk=match.id)
    game = gamekit.registry.get("karuta")
    assert match.status == Match.Status.FINISHED
    assert game.dump_state(services.replay(match)) == match.state
    stored = {row.seq: row.events for row in match.actions.all()}
    for bot in [*bots[:3], spectator]:
        assert logs[bot.name] == stored  # no private events in karuta: one log for all
        assert check_released(bot) > 10  # nothing reached a seat or the spectator early
    assert spectator.seat is None
    gone = bots[3].log
    assert {seq: gone[seq] for seq in gone} == {seq: stored[seq] for seq in gone}
    # After the drop and the grace, the CPU played the fourth seat (not only the judge's passes).
    played = match.actions.filter(seat=3, seq__gt=dropped_at[0], actor=Action.Actor.TIMEOUT)
    assert played.exists()
    state = game.load_state(match.state)
    assert state["teams"] == [0, 0, 1, 1] and state["winner"] in (0, 1)
    results = [e for events in stored.values() for e in events if e["type"] == "result"]
    assert any(r["taker"] is not None for r in results)
    assert not [e for bot in bots for e in bot.errors if e["code"] == "impossible_touch"]
    # The record: its page, and each reading's taker, team, otetsuki and send in its export.
    record = store.for_match(match.id)
    web = Client()
    assert web.get(reverse("records:page", args=[record.pk])).status_code == 200
    document = json.loads(web.get(reverse("records:json", args=[record.pk])).content)
    told = [e for step in document["steps"] for e in step["events"] if e["type"] == "result"]
    assert len(told) == len(results) and all("taker_team" in e for e in told)
    assert any(
        step["view"] and step["view"].get("teams") == [0, 0, 1, 1] for step in document["steps"]
    )
