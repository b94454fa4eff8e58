"""Genpei-sen in a real browser (issue 41): you and a CPU teammate against two CPUs, played
to the end by keyboard at 1280×800, then by clicks at 390×844, at the engine's fastest pace
with 20 poems. The board fits the screen after every take and send: at 1280×800 both
fields whole; at 390×844 the reading line, your team's rows and the enemy's rows in view.

The menu starts the game and its first board is checked (teams, both fields, keyboard
reach); the game played to the end is then one with the same settings on a deal whose first
readings are live cards, the first on the enemy side (tests/support/genpei.py), so it ends
in a handful of readings (a random deal read about half its 20 poems dead: 41-75 s)."""

from __future__ import annotations

import json
import time

import pytest

from tests.browser.test_karuta_genpei_friends import in_thread
from tests.browser.test_karuta_play import (
    FASTEST,
    VIEW,
    active,
    engine_state,
    named,
    reach,
    reading_over,
    touch_until_judged,
    view,
    wait_new_state,
    watch_refusals,
)
from tests.support.genpei import seed_opening

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Everything that must be in view, measured from the top of the page (nothing scrolled):
# the reading line and every card of both fields.
FIT = """() => {
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top + scrollY >= 0 && r.bottom + scrollY <= innerHeight + 1
      && r.left >= 0 && r.right <= innerWidth + 1; };
  const cards = [...document.querySelectorAll('[data-board] .kcard')];
  return { line: inView(document.querySelector('[data-reading-line]')),
           out: cards.filter((c) => !inView(c)).map((c) => +c.dataset.card),
           cards: cards.length,
           wide: document.documentElement.scrollWidth > document.documentElement.clientWidth };
}"""


def fits(page, v) -> None:
    shown = page.evaluate(FIT)
    laid = sum(len(row) for rows in v["sides"] for row in rows)
    assert shown["cards"] == laid, shown
    assert shown["line"] and not shown["wide"] and shown["out"] == [], shown


def sides(v):
    mine = v["teams"][v["you"]]
    own = [c for row in v["sides"][mine] for c in row]
    enemy = [c for row in v["sides"][1 - mine] for c in row]
    return own, enemy


def pinned_match(settings: dict) -> tuple[str, str]:
    """A vs-CPU match with these settings on a deal that opens with live cards, the first
    of them the enemy's (so the first take sends a card): (match id, the person's token)."""
    from matches import rooms, services

    seed = seed_opening(settings, 4, "BLLLLLLL")
    chosen = rooms.new_seed
    rooms.new_seed = lambda game, game_settings: seed
    try:
        match, token = services.create_match("karuta", settings, "cpu", settings["cpu_level"])
    finally:
        rooms.new_seed = chosen
    return str(match.id), token


def test_two_against_two_cpus_by_keyboard_then_by_clicks_on_a_phone(asgi_server, watched):
    page = watched.page
    page.set_viewport_size(DESKTOP)
    refused = watch_refusals(page)
    page.goto(f"{asgi_server.url}/karuta/")
    page.check("input[name=mode][value=genpei]")
    page.select_option("#id_team_size", "2")
    page.select_option("#id_enemy_size", "2")
    page.check("#id_cpu_level_nyumon")
    page.select_option("#id_seat_level_1", "nyumon")  # your teammate
    # The menu says each CPU seat's team, and offers only the seats there are.
    assert "源氏" in page.inner_text("[data-field=seat_level_1] label")
    assert "平家" in page.inner_text("[data-field=seat_level_3] label")
    assert page.locator("[data-field=seat_level_4]").is_hidden()
    page.select_option("#id_poem_set", "1")
    page.select_option("#id_pace", FASTEST)
    page.select_option("#id_memorise_seconds", "0")
    page.click("button[data-play-mode=cpu]")
    page.wait_for_function(VIEW)
    page.wait_for_function("window.karutaPlay.view().phase === 'reading'")
    v = view(page)
    assert v["mode"] == "genpei" and v["teams"] == [0, 0, 1, 1] and v["you"] == 0
    assert page.locator(".side-own .kcard").count() == 5
    assert page.locator(".side-opponent .kcard").count() == 5
    fits(page, v)

    # Every card is reachable by keyboard: the find box and the arrows reach the enemy's.
    own, enemy = sides(v)
    cards = json.loads(page.inner_text("#karuta-cards"))
    page.fill("[data-jump]", cards[str(enemy[0])]["tori"].split()[0])
    page.press("[data-jump]", "Enter")
    assert page.evaluate("document.activeElement.dataset.card") == str(enemy[0])
    page.locator(f".kcard[data-card='{own[0]}']").focus()
    for _ in range(6):
        page.keyboard.press("ArrowUp")
    assert int(page.evaluate("document.activeElement.dataset.card")) in enemy

    # The menu's game ends (the resign button of a game against CPUs only); the same
    # settings are played to the end on the short deal.
    settings = engine_state(page).settings
    page.click("[data-room-resign]")
    page.wait_for_selector("[data-room-resign]", state="hidden")  # the match is over
    match_id, token = in_thread(pinned_match, settings)
    host = asgi_server.url.split("//")[1].split(":")[0]
    page.context.add_cookies(
        [{"name": "seat_token", "value": token, "domain": host, "path": f"/play/{match_id}/"}]
    )
    page.goto(f"{asgi_server.url}/play/{match_id}/")
    page.wait_for_function(VIEW)
    page.wait_for_function("window.karutaPlay.view().phase === 'reading'")
    takes = sends = 0
    phone = False
    checked = {"desktop": 0, "phone": 0}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        v = view(page)
        if v["phase"] == "over":
            break
        if v["phase"] == "send":
            if v["send"].get("by") == v["you"]:
                own, _ = sides(v)
                if phone:
                    page.click(f".kcard[data-card='{own[0]}']")
                else:
                    page.locator(f".kcard[data-card='{own[0]}']").focus()
                    page.keyboard.press("Enter")
                sends += 1
                page.wait_for_function(
                    "window.karutaPlay.view().phase !== 'send' || "
                    f"window.karutaPlay.view().send.remaining < {v['send']['remaining']}",
                    timeout=5000,
                )
                fits(page, view(page))  # the board fits after the send
                checked["phone" if phone else "desktop"] += 1
            else:
                time.sleep(0.05)
            continue
        if not v["reading"] or not active(v):
            time.sleep(0.05)
            continue
        v = named(page)
        r = v["reading"]
        if not r or r["poem"] is None or not active(v):
            continue
        own, enemy = sides(v)
        if r["poem"] in own + enemy:
            touch_until_judged(page, r["poem"], refused, reading_over(r["number"]), by_mouse=phone)
            takes += 1
        else:  # a dead card: keep still, the page passes at the close
            reach(page, r["close"] + 80, timeout=30)
        wait_new_state(page, r["number"], "reading")
        after = view(page)
        if after["phase"] == "reading":
            fits(page, after)  # the board fits after the take
            checked["phone" if phone else "desktop"] += 1
        if checked["desktop"] >= 2 and not phone:  # two fits seen, then the phone
            page.set_viewport_size(PHONE)  # the rest on a phone, by clicks
            phone = True
            page.wait_for_timeout(300)
            fits(page, view(page))
    v = view(page)
    assert v["phase"] == "over", "the game did not finish in time"
    assert takes >= 3 and sends >= 1, (takes, sends, v["tally"])
    assert checked["desktop"] >= 2 and checked["phone"] >= 1, checked
    page.wait_for_selector("[data-result]:not([hidden])")
    result = v["result"]
    assert result["winner_team"] in (0, 1) and result["places"][0] == result["places"][1]
    summary = page.inner_text("[data-result-summary]")
    assert ("源氏" if result["winner_team"] == 0 else "平家") in summary
    assert page.locator("[data-result-rows] tr").count() == 4
    assert watched.errors == []
