"""Issue 41's "done means", tried as new users would: four friends in four browsers (four
Chromium contexts, each its own cookies) play genpei two against two, as a friend room.

The creator makes the room from the menu; two friends join from the invitation, each
choosing a team; the creator moves seats between the teams by keyboard (the room shows the
teams as they are now on every page); the fourth friend joins the team that still has a
free seat and the game starts. Every page hears the reading (its voice scheduled on the
page's AudioContext once the page is touched, as a person would press "start audio"). One
team's two players take every live card, one by keyboard and one by clicks, and choose the
cards they send; the game ends, every page shows the same result, and the record opens.

Kept short: 20 poems at the fastest voiced pace, and a deal whose first five readings are
live cards (tests/support/genpei.py), so the game ends in five readings when one team
takes them all."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.conftest import WatchedPage
from tests.browser.test_karuta_play import (
    active,
    named,
    touch_until_judged,
    view,
    wait_new_state,
    watch_refusals,
)
from tests.support.genpei import seed_opening

pytestmark = pytest.mark.browser

SETTINGS = {
    "mode": "genpei",
    "teams": [2, 2],
    "pace": "very_fast",
    "memorise_seconds": 0,
    "poem_set": 1,
}


def in_thread(function, *args):
    """A database call from the test: Django refuses them in the thread where Playwright's
    event loop runs."""
    from django.db import connection

    def call():
        try:
            return function(*args)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def pin_deal(match_id: str, players: int = 4, opening: str = "LLLLL") -> None:
    """The room's deal, before its game starts: the first seed that opens as `opening` says
    (tests/support/genpei.py)."""
    from matches.models import Match

    seed = seed_opening(Match.objects.get(pk=match_id).settings, players, opening)
    Match.objects.filter(pk=match_id, status=Match.Status.WAITING).update(seed=seed)


def room(page) -> dict:
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-room-seats] .seat-group')].map(
             (g) => [...g.querySelectorAll('li[data-seat]')].map((li) => +li.dataset.seat))"""
    )


def join(page, invite: str, group: int) -> None:
    page.goto(invite)
    page.click(f"[data-join][data-group='{group}']")
    page.wait_for_selector("[data-room-seats] li[data-seat]")


def test_four_friends_play_two_against_two_in_four_browsers(asgi_server, chromium):
    contexts = [
        chromium.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
        for _ in range(4)
    ]
    watched = [WatchedPage(context.new_page()) for context in contexts]
    pages = [w.page for w in watched]
    refused = [watch_refusals(page) for page in pages]
    owner = pages[0]
    owner.goto(f"{asgi_server.url}/karuta/")
    owner.check("input[name=mode][value=genpei]")
    owner.select_option("#id_team_size", "2")
    owner.select_option("#id_enemy_size", "2")
    owner.select_option("#id_poem_set", "1")
    owner.select_option("#id_pace", SETTINGS["pace"])
    owner.select_option("#id_memorise_seconds", "0")
    owner.click("button[data-play-mode=friend]")
    owner.wait_for_function("document.querySelector('[data-invite-url]').value !== ''")
    invite = owner.input_value("[data-invite-url]")
    match_id = json.loads(owner.inner_text("#match-config"))["match"]
    in_thread(pin_deal, match_id)
    assert room(owner) == [[0, 1], [2, 3]]

    # Two friends join, one each side; the creator then puts them the other way round.
    join(pages[1], invite, 0)  # the Genji: seat 1
    join(pages[2], invite, 1)  # the Heike: seat 2
    owner.wait_for_function("document.querySelectorAll('[data-swap-pick]').length === 4")
    owner.locator("[data-swap-pick='1']").focus()
    owner.keyboard.press("Enter")
    # The keyboard moves to the first seat of the other team; Escape would put the pick down.
    assert owner.evaluate("document.activeElement.dataset.swapTo") == "2"
    assert "平家" in owner.inner_text("[data-room-seats]")
    owner.keyboard.press("Enter")
    for page in pages[:3]:  # every page in the room shows the teams as they are now
        page.wait_for_function(
            """() => JSON.stringify([...document.querySelectorAll(
                 '[data-room-seats] .seat-group')].map((g) => [...g.querySelectorAll(
                 'li[data-seat]')].map((li) => +li.dataset.seat))) === '[[0,2],[1,3]]'"""
        )
    assert owner.evaluate("document.activeElement.dataset.swapPick") == "1"
    # The last friend joins the team with a free seat (seat 3, now the Heike's): play.
    join(pages[3], invite, 1)
    for page in pages:
        page.wait_for_function("window.karutaPlay.view() && window.karutaPlay.view().teams")
        # A touch on the page, as a person would press "start audio" (the browser's rule).
        start = page.locator("[data-voice-start]")
        if start.is_visible():
            start.click()
        else:
            page.mouse.click(5, 5)
    seats = [view(page)["you"] for page in pages]
    assert seats == [0, 1, 2, 3]
    assert view(owner)["teams"] == [0, 1, 0, 1]

    # The Genji (seats 0 and 2) take every live card: the creator by keyboard, seat 2 by
    # clicks; whoever took from the Heike's side sends one of the Genji's cards.
    takers = [owner, pages[2]]
    takes = sends = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        v = view(owner)
        if v["phase"] == "over":
            break
        if v["phase"] == "send":
            by = v["send"]["by"]
            page = pages[seats.index(by)]
            mine = [c for row in v["sides"][v["teams"][by]] for c in row]
            if by == 0:
                page.locator(f".kcard[data-card='{mine[0]}']").focus()
                page.keyboard.press("Enter")
            else:
                page.click(f".kcard[data-card='{mine[0]}']")
            sends += 1
            owner.wait_for_function(
                "window.karutaPlay.view().phase !== 'send' || "
                f"window.karutaPlay.view().send.remaining < {v['send']['remaining']}",
                timeout=10000,
            )
            continue
        if not v["reading"] or not active(v):
            owner.wait_for_timeout(50)
            continue
        taker = takers[takes % 2]
        # The taker's page may be a frame behind the creator's (still showing the send).
        taker.wait_for_function(
            "([n]) => { const v = window.karutaPlay.view();"
            " return v.phase === 'over' || (v.reading && v.reading.number >= n); }",
            arg=[v["reading"]["number"]],
        )
        if view(taker)["phase"] == "over":
            continue
        r = named(taker)["reading"]
        if not r or r["poem"] is None:
            continue
        i = pages.index(taker)
        touch_until_judged(
            taker,
            r["poem"],
            refused[i],
            lambda v, n=r["number"]: v["phase"] != "reading" or v["reading"]["number"] != n,
            by_mouse=taker is not owner,
        )
        takes += 1
        wait_new_state(owner, r["number"], "reading", timeout=15)
    results = []
    for page in pages:
        page.wait_for_function("window.karutaPlay.view().phase === 'over'", timeout=20000)
        page.wait_for_selector("[data-result]:not([hidden])")
        results.append(view(page)["result"])
    final = view(owner)
    taken = [final["tally"][seat]["takes"] for seat in range(4)]
    assert taken[0] >= 1 and taken[2] >= 1 and taken[1] == taken[3] == 0, (taken, takes)
    assert sends >= 1, (takes, sends)
    assert all(result == results[0] for result in results), results
    assert results[0]["winner_team"] == 0, results[0]
    summary = pages[1].inner_text("[data-result-summary]")
    assert "源氏" in summary
    # Every page heard the reading: its voice placed the upper verses' clips.
    for page in pages:
        log = page.evaluate("window.karutaPlay.voice().log")
        assert {e["part"] for e in log} >= {"kami"}, page.evaluate("window.karutaPlay.voice()")
    # The record opens from the result screen: the winners are the seats as the creator
    # arranged them (red and green), and each reading's taker and send between the teams.
    record = pages[3]
    record.click("[data-record-link]")
    readings = final["tally"][0]["readings"]
    record.wait_for_function(
        f"document.querySelectorAll('[data-readings] tbody tr').length === {readings}"
    )
    assert "赤, 緑" in record.inner_text("[data-record]")
    rows = record.locator("[data-readings] tbody tr").all_inner_texts()
    takers = [row.split("\t")[2] for row in rows]
    assert sum(who in ("赤 (源氏)", "緑 (源氏)") for who in takers) == sum(taken), rows
    assert sum("赤 · 緑 → 青 · 黄" in row for row in rows) == sends, rows
    for w in watched:
        assert w.errors == []
