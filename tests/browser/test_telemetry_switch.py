"""In a real browser: with the switch off no request leaves the page; with it on, events arrive."""

from __future__ import annotations

import re
import time

import pytest
from django.db import connections

from telemetry.models import TelemetryEvent
from tests.support.server import AsgiServer

pytestmark = pytest.mark.browser


@pytest.fixture
def server(transactional_db):
    server = AsgiServer(extra_env={"DJANGO_SETTINGS_MODULE": "tests.browser.telemetry_settings"})
    server.start()
    yield server
    server.stop()


@pytest.fixture
def browser(chromium, monkeypatch):
    # The test reads the database while Playwright's event loop runs in this thread: those
    # reads are plain, one at a time, so Django's async guard may let them through.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    yield chromium
    # Those reads got a connection of their own: close it, or PostgreSQL cannot flush and
    # drop the test database afterwards.
    connections.close_all()


def wait_for_rows(count: int, timeout: float = 15.0) -> list[TelemetryEvent]:
    deadline = time.monotonic() + timeout
    while TelemetryEvent.objects.count() < count and time.monotonic() < deadline:
        time.sleep(0.2)
    return list(TelemetryEvent.objects.order_by("pk"))


# Nothing queued and no flush scheduled: nothing can leave later, so no need to wait and see.
PENDING = "async () => (await import('/static/js/telemetry.js')).pending()"
# Hide, then leave the page (the moments a beacon would go); resolves with what each flush
# sent, as the page's own flush hook reports it.
LEAVE = """() => new Promise((resolve) => {
    const seen = [];
    addEventListener("hyakunin:telemetry-flush", (e) => {
        seen.push(e.detail.sent);
        if (seen.length === 2) resolve(seen);
    });
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    dispatchEvent(new Event("pagehide"));
})"""


def open_game_page(page, server):
    page.goto(server.url + "/telemetry-test/")
    page.wait_for_selector("body[data-ready=yes]")


def test_switch_off_sends_nothing_at_all(server, browser):
    context = browser.new_context()
    requests = []
    context.on("request", lambda r: requests.append((r.method, r.url)))
    page = context.new_page()
    page.goto(server.url + "/en/privacy/")
    toggle = page.locator("[data-telemetry-toggle]")
    toggle.wait_for()
    assert toggle.is_checked()  # on by default
    toggle.uncheck()

    open_game_page(page, server)
    assert not page.locator("[data-telemetry-toggle]").is_checked()  # remembered
    for button in ("#start", "#end", "#fail3d"):
        page.click(button)
    # Nothing queued and no flush scheduled: nothing can leave later (no waiting needed).
    assert page.evaluate(PENDING) == {"queued": 0, "scheduled": False}
    # The moment a beacon would go (the page hidden, then left): the page's own flush hook
    # reports what each flush sent.
    assert page.evaluate(LEAVE) == [0, 0]
    context.close()

    assert [r for r in requests if r[0] != "GET" or "/api/" in r[1]] == []
    assert TelemetryEvent.objects.count() == 0


def test_switch_on_sends_events_in_batches(server, browser):
    context = browser.new_context()
    posts = []
    context.on("request", lambda r: r.method == "POST" and posts.append(r.post_data or ""))
    page = context.new_page()
    open_game_page(page, server)
    assert page.locator("[data-telemetry-toggle]").is_checked()
    page.click("#start")
    page.click("#end")
    page.goto(server.url + "/en/privacy/")  # leaving before 3D started; flushes the batch

    rows = wait_for_rows(4)
    kinds = [row.kind for row in rows]
    assert sorted(kinds) == ["game_end", "game_start", "page_load", "view3d_abandon"], kinds
    by_kind = {row.kind: row for row in rows}
    assert by_kind["game_start"].settings == {"players": "1"}
    assert (by_kind["game_end"].result, by_kind["game_end"].moves,
            by_kind["game_end"].duration) == ("win", "10-29", "3-10m")  # fmt: skip
    assert by_kind["view3d_abandon"].abandon == "left"
    assert by_kind["page_load"].cache in ("all", "some", "none", "unknown")
    assert {row.game for row in rows} == {"coinflip"}
    assert {(row.browser, row.os, row.device) for row in rows} == {("chrome", "linux", "other")}
    page_views = {row.page_view for row in rows}
    assert len(page_views) == 1 and re.fullmatch(r"[0-9a-f]{32}", page_views.pop())

    # A new page load gets a new id; switching off on the page stops sending at once.
    open_game_page(page, server)
    page.click("#fail3d")
    page.evaluate("async () => (await import('/static/js/telemetry.js')).flush()")
    rows = wait_for_rows(6)
    assert {row.kind for row in rows[4:]} == {"page_load", "view3d_failure"}
    assert rows[4].page_view == rows[5].page_view != rows[0].page_view
    # (Playwright does not report keepalive requests made while a page unloads; this one
    # was sent from a live page.) Bodies carry buckets only: no URL, no address.
    assert posts and all("http" not in body and "127.0.0.1" not in body for body in posts)
    sent = len(posts)
    page.locator("[data-telemetry-toggle]").uncheck()
    page.click("#start")
    assert page.evaluate(PENDING) == {"queued": 0, "scheduled": False}
    assert page.evaluate(LEAVE) == [0, 0]
    context.close()
    assert len(posts) == sent
    assert TelemetryEvent.objects.count() == 6
    # With no cookie or storage holding it, the id lived in page memory only.


# What one tab's pages saw, kept in sessionStorage across a reload: each page's number, the
# moments it was told it is going (beforeunload, pagehide) and each flush with what it sent.
# Added before the page's scripts run, so its listeners run before telemetry.js's.
WATCH_LEAVING = """(() => {
    const n = Number(sessionStorage.getItem("pages") || "0");
    sessionStorage.setItem("pages", String(n + 1));
    const log = (entry) => {
        const seen = JSON.parse(sessionStorage.getItem("seen") || "[]");
        seen.push([n, entry]);
        sessionStorage.setItem("seen", JSON.stringify(seen));
    };
    addEventListener("beforeunload", () => log("beforeunload"));
    addEventListener("pagehide", () => log("pagehide"));
    addEventListener("hyakunin:telemetry-flush", (e) => log(`flush ${e.detail.sent}`));
})()"""


def test_a_reload_sends_the_batch_while_the_page_is_whole(server, browser):
    """A page reloaded before its batch timer fired sends the batch at beforeunload. Sent
    from pagehide only, Chromium under load now and then lost the whole batch, beacon and
    keepalive fetch alike (tests/browser/test_telemetry_rooms.py: a reloaded friend-room
    page's room_connect and page_load missing)."""
    context = browser.new_context()
    context.add_init_script(WATCH_LEAVING)
    page = context.new_page()
    open_game_page(page, server)
    page.click("#start")
    assert page.evaluate(PENDING) == {"queued": 2, "scheduled": True}  # page_load, game_start
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    seen = [entry for n, entry in page.evaluate("JSON.parse(sessionStorage.getItem('seen'))")
            if n == 0]  # fmt: skip
    # The queued events and the 3D abandon leave in the first flush, before pagehide.
    assert seen[:3] == ["beforeunload", "flush 3", "pagehide"], seen
    rows = wait_for_rows(3)
    assert sorted(row.kind for row in rows) == ["game_start", "page_load", "view3d_abandon"]
    context.close()
