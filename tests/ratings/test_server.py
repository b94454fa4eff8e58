"""Against the real server (daphne) over real sockets: two signed-in players finish a rated
karuta game and both ratings change once; a server killed (kill -9) after a game's finishing
commit, with its rating update under way, then restarted: the sweep applies it, once."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from matches.models import Match
from matches.services import SeatSpec, create_match_for
from ratings import tasks
from ratings.models import AppliedMatch, Rating, RatingChange
from tests.matches.wsbot import Bot

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
KEY = "karuta-competitive"
SETTINGS = {"mode": "competitive", "memorise_seconds": 0}


def wait_until(check, timeout=60.0, what="it"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def resign_over_the_socket(server, match, tokens, seat, then=None):
    """Seat `seat` resigns; the other sees the game finished, or with `then`, that is called
    (in a thread) once the resignation is sent, and the sockets are left to the server."""

    async def run():
        url = f"{server.ws_url}/play/{match.id}/ws/"
        bots = [Bot(url, tokens[i], name=str(i)) for i in (0, 1)]
        for bot in bots:
            await bot.open(since=0)
        await bots[seat].send({"type": "resign"})
        if then is not None:
            await asyncio.to_thread(then)
            return
        await bots[1 - seat].until(
            lambda f: f["type"] == "state" and f["match"]["status"] == "finished"
        )
        for bot in bots:
            await bot.close()

    asyncio.run(run())


def updates_waiting_on_a_lock() -> int:
    """Other backends of this database waiting for a lock (the server's rating update)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def test_rated_games_over_the_socket_update_once_even_across_a_kill_9(asgi_server):
    if connection.vendor != "postgresql":
        reason = "row locks and a second process on one database: PostgreSQL (DATABASE_URL)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    model = get_user_model()
    aoi, ren = (model.objects.create_user(name, password="x").pk for name in ("aoi", "ren"))
    seats = [SeatSpec(aoi), SeatSpec(ren)]

    # 1. A rated game finished over the socket (ren resigns): both ratings change, once.
    first, tokens = create_match_for("karuta", SETTINGS, "friend", seats, rated=True)
    resign_over_the_socket(asgi_server, first, tokens, seat=1)
    wait_until(lambda: RatingChange.objects.filter(match_id=first.id).count() == 2)
    after_first = {r.user_id: r.rating for r in Rating.objects.filter(key=KEY)}
    assert after_first[aoi] > 1500 > after_first[ren]

    # 2. The next game's update is held up behind row locks this test takes, and the server
    # is killed once the game's finishing commit is in and its update is waiting.
    second, tokens = create_match_for("karuta", SETTINGS, "friend", seats, rated=True)

    def kill_once_the_update_waits():
        try:
            wait_until(
                lambda: Match.objects.filter(pk=second.id, status="finished").exists(),
                what="the finishing commit",
            )
            wait_until(lambda: updates_waiting_on_a_lock() > 0, what="the update's lock wait")
            asgi_server.kill()
        finally:
            connection.close()  # this thread's

    with transaction.atomic():
        list(Rating.objects.select_for_update().filter(key=KEY))
        resign_over_the_socket(asgi_server, second, tokens, 0, then=kill_once_the_update_waits)
    asgi_server.start()  # restarted
    assert not RatingChange.objects.filter(match_id=second.id).exists()
    assert {r.user_id: r.games for r in Rating.objects.filter(key=KEY)} == {aoi: 1, ren: 1}

    # 3. The sweep (Celery beat runs it every minute) applies it; again, it finds nothing.
    assert tasks.catch_up() == {"applied": 1}
    assert tasks.catch_up() == {}
    ratings = {r.user_id: r for r in Rating.objects.filter(key=KEY)}
    assert {u: r.games for u, r in ratings.items()} == {aoi: 2, ren: 2}
    assert ratings[ren].rating > after_first[ren] and ratings[aoi].rating < after_first[aoi]
    assert RatingChange.objects.filter(match_id=second.id).count() == 2
    assert AppliedMatch.objects.filter(match_id__in=[first.id, second.id]).count() == 2
