"""Match records in a real browser: a Bakudan record stepped through by keyboard to the end
and autoplayed, a karuta record's take-time chart and its "add to today's review" for the
trainer, axe 0 serious/critical, and the page at 390×844."""

from __future__ import annotations

import re

import pytest

from matches import services
from tests.records.play import Clock, play_match

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


@pytest.fixture
def bakudan_match(transactional_db, monkeypatch):
    """Made before the browser starts (Django refuses database calls while Playwright's
    event loop runs in the thread)."""
    return finished(monkeypatch, "bakudan", {"players": 3})


@pytest.fixture
def karuta_match(transactional_db, monkeypatch):
    karuta = {"mode": "competitive", "memorise_seconds": 0, "pace": "fast", "poem_set": 1}
    return finished(monkeypatch, "karuta", karuta, mode="cpu")


def finished(monkeypatch, slug, game_settings, mode="hotseat"):
    match, _token = services.create_match(slug, game_settings, mode)
    held = [s.index for s in match.seats.all() if not s.is_cpu]
    play_match(match.id, held, Clock(monkeypatch), seed=7)
    monkeypatch.undo()  # the real clock again for the server's side of the test
    return match


def position(page) -> str:
    return page.locator("[data-position]").inner_text()


def test_a_bakudan_record_is_stepped_through_by_keyboard_to_the_end(
    bakudan_match, asgi_server, watched
):
    match = bakudan_match
    page = watched.page
    page.goto(f"{asgi_server.url}/play/{match.id}/record/")
    assert "/records/" in page.url and str(match.id) not in page.url
    page.wait_for_function("document.body.dataset.recordReady === 'true'")
    count = page.locator("[data-moves] button").count()
    assert count > 3
    assert page.locator("[data-move='0'][aria-current]").count() == 1
    page.locator("[data-step=next]").focus()
    for n in range(1, count):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"location.hash === '#{n}'")
        assert page.locator(f"[data-move='{n}'][aria-current]").count() == 1
    page.keyboard.press("ArrowRight")  # past the end: stays on the last move
    assert page.evaluate("location.hash") == f"#{count - 1}"
    assert page.locator("[data-step=next]").is_disabled()
    # Every hand and the deck are on the board (the match is over), and the deal's number.
    assert page.locator(".board-seat").count() == 3
    assert page.locator(".board-deck").count() == 1
    assert page.locator("[data-number]").inner_text().strip()
    page.keyboard.press("Home")
    page.wait_for_function("location.hash === '#0'")
    # Autoplay on the browser's own timers (the Node test's fake clock cannot see a timer
    # called with the wrong `this`: "Illegal invocation").
    play = page.locator("[data-step=play]")
    play.click()
    page.wait_for_function("location.hash === '#2'", timeout=15000)
    assert play.get_attribute("aria-pressed") == "true"
    play.click()  # pause
    assert play.get_attribute("aria-pressed") == "false"
    page.keyboard.press("End")
    page.wait_for_function(f"location.hash === '#{count - 1}'")
    watched.screenshot("record-bakudan")
    assert watched.axe_violations() == []
    page.goto(page.url.split("#")[0] + "#99999")  # out of range: the nearest move
    page.wait_for_function("document.body.dataset.recordReady === 'true'")
    assert page.locator(f"[data-move='{count - 1}'][aria-current]").count() == 1
    assert not watched.errors


def test_a_karuta_record_shows_the_take_time_chart_on_a_phone(karuta_match, asgi_server, chromium):
    from tests.browser.conftest import WatchedPage

    match = karuta_match
    context = chromium.new_context(viewport=PHONE, locale="en-US")
    watched = WatchedPage(context.new_page())
    page = watched.page
    page.goto(f"{asgi_server.url}/play/{match.id}/record/")
    page.wait_for_function("document.body.dataset.recordReady === 'true'")
    chart = page.locator("[data-chart=takes] svg.line-chart")
    assert chart.count() == 1
    assert chart.get_attribute("aria-label") == "Take times over the game"
    assert page.locator("[data-chart=takes] circle").count() >= 1
    assert page.locator("[data-readings] tbody tr").count() >= 1
    assert page.locator("[data-slowest] li").count() >= 1
    assert not watched.overflows_horizontally()
    page.locator("[data-chart=takes]").scroll_into_view_if_needed()
    watched.screenshot("record-karuta-phone")
    assert watched.axe_violations() == []
    # From play to practice: the missed and slowest cards go into the trainer's review.
    add = page.locator("[data-trainer-add]")
    add.wait_for(state="visible")
    add.focus()
    page.keyboard.press("Enter")
    status = page.locator("[data-trainer-added]")
    status.filter(has_text=re.compile(r"\d")).wait_for()
    added = int(re.search(r"\d+", status.inner_text()).group())
    assert 1 <= added <= 10
    page.goto(f"{asgi_server.url}/en/karuta/trainer/")
    page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
    asked = page.evaluate(
        """async () => { const { openStore } = await import('/static/js/trainer/store.js');
            const records = await (await openStore()).load();
            return [...records.values()].filter((r) => r.asked != null).length; }"""
    )
    assert asked == added
    # The asked cards are due, and the day's ten new ones come after them.
    assert page.locator("#due-count").inner_text() == f"Today's review: {added + 10} cards"
    assert not watched.errors
    context.close()


@pytest.fixture
def bozu_match(transactional_db, monkeypatch):
    return finished(monkeypatch, "bozu", {"players": 2})


def test_the_result_screen_links_to_the_record(bozu_match, asgi_server, watched):
    page = watched.page
    page.goto(f"{asgi_server.url}/play/{bozu_match.id}/")
    link = page.locator("[data-result] [data-record-link]")
    link.wait_for(state="visible", timeout=20_000)
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/records/*/")
    page.wait_for_function("document.body.dataset.recordReady === 'true'")
    assert str(bozu_match.id) not in page.url
    assert page.locator("[data-chart=hands] svg.line-chart").count() == 1
    assert not watched.errors
