"""The lobby in real browsers (issue 39): two signed-in players press quick pairing for
rated karuta competitive and land in the same rated match, which ends with both ratings
moved; a third, alone, is offered a CPU after the wait (3 s under the test settings), plays
it in a new tab, and keeps the place. One test for all of it: each page load costs about a
CPU second."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from matches.models import Match, Seat

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
RATED = "karuta-competitive-20-rated"
CASUAL = "karuta-competitive-20-casual"
PLAY = re.compile(r"/play/[0-9a-f-]{36}/$")


def orm(fn, *args):
    """Database work off the thread Playwright's loop is marked on (Django refuses it
    there), its connection closed after."""

    def run():
        try:
            return fn(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def login(handle: str):
    user = get_user_model().objects.create(username=handle)
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value


def match_of(url: str) -> tuple[Match, set]:
    match = Match.objects.get(id=url.rstrip("/").rsplit("/", 1)[1])
    return match, {s.user_id for s in Seat.objects.filter(match=match)}


def signed_in_context(chromium, server, handle: str, viewport):
    user, session = orm(login, handle)
    context = chromium.new_context(viewport=viewport, locale="en-GB")
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": session,
                "domain": urlsplit(server.url).hostname,
                "path": "/",
            }
        ]
    )
    return context, user


def connected(page) -> None:
    """The page's socket is open (a press before that is kept and sent on opening, but
    a test that waits does not depend on it)."""
    page.wait_for_function("() => document.getElementById('lobby-status').textContent === ''")


def ratings_of(*users) -> dict:
    from ratings.models import Rating

    rows = Rating.objects.filter(user__in=users, key="karuta-competitive")
    return {row.user_id: (row.rating, row.games) for row in rows}


def test_quick_pairing_pairs_two_into_a_rated_game_and_offers_a_lone_player_a_cpu(
    transactional_db, poems_in_db, chromium, asgi_server
):
    server = asgi_server
    errors: list[str] = []

    # A guest alone first, so that their wait for the CPU offer runs beside the pairing:
    # casual only, then a CPU offered after the wait, the place kept.
    ctx_c = chromium.new_context(viewport=DESKTOP, locale="en-GB")
    c = ctx_c.new_page()
    c.on("pageerror", lambda e: errors.append(str(e)))
    c.goto(f"{server.url}/en/lobby/")
    connected(c)
    assert c.is_disabled(f"button[data-pool='{RATED}']")
    c.click(f"button[data-pool='{CASUAL}']")
    c.wait_for_selector("#lobby-waiting:not([hidden])")

    ctx_a, taro = signed_in_context(chromium, server, "taro", DESKTOP)
    ctx_b, hana = signed_in_context(chromium, server, "hana", PHONE)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    for page in (a, b):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/en/lobby/")
        connected(page)

    # Keyboard for one, a tap for the other.
    a.focus(f"button[data-pool='{RATED}']")
    a.keyboard.press("Enter")
    a.wait_for_selector("#lobby-waiting:not([hidden])")
    b.click(f"button[data-pool='{RATED}']")
    a.wait_for_url(PLAY, timeout=20_000)
    b.wait_for_url(PLAY, timeout=20_000)
    assert a.url == b.url
    match, users = orm(match_of, a.url)
    assert match.rated and match.game == "karuta" and match.mode == "friend"
    assert users == {taro.pk, hana.pk}
    for page in (a, b):  # each page holds its own seat
        page.wait_for_function("() => window.karutaPlay && window.karutaPlay.view()")
        assert page.evaluate("window.karutaPlay.view().you") in (0, 1)
    assert {
        a.evaluate("window.karutaPlay.view().you"),
        b.evaluate("window.karutaPlay.view().you"),
    } == {0, 1}

    # The lone guest was offered a CPU meanwhile (3 s under the test settings).
    c.wait_for_selector("#cpu-offer:not([hidden])", timeout=15_000)
    with c.expect_popup() as popup:
        c.click("#cpu-offer button[type=submit]")
    cpu_page = popup.value
    cpu_page.wait_for_url(PLAY)
    cpu_match, _users = orm(match_of, cpu_page.url)
    assert cpu_match.mode == "cpu" and not cpu_match.rated
    assert c.is_visible("#lobby-waiting")  # still looking
    assert c.url.endswith("/en/lobby/")
    ctx_c.close()

    # The rated game to its end. The pool's game is a full one (100 poems: a shorter poem
    # set is never rated), minutes of reading even at the fastest pace, so it ends as a
    # rated game may: both skip the memorisation, the reading starts, and Hana resigns.
    # Both ratings move: the resigner loses.
    for page in (a, b):
        page.wait_for_function("window.karutaPlay.view().phase === 'memorise'")
        page.click("[data-skip]")
    for page in (a, b):
        page.wait_for_function("window.karutaPlay.view().phase === 'reading'")
    b.click("[data-room-resign]")
    for page in (a, b):
        page.wait_for_selector("[data-result]:not([hidden])")
    assert orm(lambda: Match.objects.get(id=match.id).status) == Match.Status.FINISHED
    moved = {}
    for _ in range(50):  # applied by the server as the match finishes, just after commit
        moved = orm(ratings_of, taro, hana)
        if len(moved) == 2:
            break
        a.wait_for_timeout(100)
    assert moved[taro.pk][1] == moved[hana.pk][1] == 1, moved
    assert moved[taro.pk][0] > 1500 > moved[hana.pk][0], moved
    assert errors == []
