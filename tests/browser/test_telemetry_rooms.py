"""Friend-room telemetry in a real browser: the first connection is recorded (the room info
arrives after the socket opens), a spectator is recorded as one, and neither a spectator nor
a reload counts as another game start or as a loss."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from django.db import connections

from telemetry.models import TelemetryEvent
from tests.browser.test_bozu import play_to_the_end_by_keyboard, start_from_menu
from tests.support.server import AsgiServer

pytestmark = pytest.mark.browser

# Leave the page the way a player does; resolves once the page's flush hook has run.
LEAVE = """() => new Promise((resolve) => {
    addEventListener("hyakunin:telemetry-flush", () => resolve(true));
    dispatchEvent(new Event("pagehide"));
})"""


@pytest.fixture
def server(transactional_db, poems_in_db):
    server = AsgiServer(extra_env={"DJANGO_SETTINGS_MODULE": "tests.browser.telemetry_settings"})
    server.start()
    yield server
    server.stop()


def kinds_when(done, timeout: float = 15.0) -> Counter:
    """The kinds of events stored, once `done(kinds)` holds (or the time is up)."""
    deadline = time.monotonic() + timeout
    while True:
        kinds = Counter(TelemetryEvent.objects.values_list("kind", flat=True))
        if done(kinds) or time.monotonic() > deadline:
            return kinds
        time.sleep(0.2)


def test_friend_room_connect_spectator_and_reload(server, chromium, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    try:
        host_ctx = chromium.new_context()
        host = host_ctx.new_page()
        start_from_menu(host, server.url, "friend", players=2)
        host.wait_for_selector("[data-room-start]:not([hidden])")
        host.click("[data-room-start]")  # the CPU takes the second seat
        host.wait_for_selector("[data-panel-draw][aria-disabled=false]")
        play_url = host.url

        watcher_ctx = chromium.new_context()
        watcher = watcher_ctx.new_page()
        watcher.goto(play_url)
        watcher.wait_for_selector("[data-room-spectator]:not([hidden])")

        host.reload()  # a reload in the middle of the game
        play_to_the_end_by_keyboard(host)
        watcher.wait_for_selector("[data-result]:not([hidden])")
        for page in (host, watcher):
            assert page.evaluate(LEAVE)
        # The host's first page reports its reconnects as it is reloaded, the others as
        # they are left: three, the last in the batches LEAVE sent.
        kinds = kinds_when(
            lambda k: k["game_end"] >= 1 and k["room_spectate"] >= 1 and k["room_reconnects"] >= 3
        )
        host_ctx.close()
        watcher_ctx.close()
    finally:
        connections.close_all()
    assert kinds["room_connect"] == 2, kinds  # the host's page, then the reloaded page
    assert kinds["room_spectate"] == 1, kinds
    # The menu (left by its form at once, as its room_created), the host's two play pages,
    # the spectator's: each page's batch arrives, those sent as a page goes too.
    assert kinds["page_load"] == 4, kinds
    assert kinds["room_created"] == 1, kinds
    assert kinds["room_reconnects"] == 3, kinds
    assert kinds["game_start"] == 1, kinds  # not the reload, not the spectator
    assert kinds["game_end"] == 1, kinds  # the host's result only: a spectator never loses
    results = set(TelemetryEvent.objects.filter(kind="game_end").values_list("result", flat=True))
    assert results <= {"win", "loss", "draw"}


def test_a_friend_room_whose_socket_never_opens_is_recorded_as_a_failed_connection(
    server, chromium, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    try:
        context = chromium.new_context()
        host = context.new_page()
        # Every WebSocket of the page is refused at once: the connection never comes up.
        host.route_web_socket("**/ws/", lambda ws: ws.close())
        host.goto(f"{server.url}/bozu/")
        host.click("button[name=play_mode][value=friend]")
        host.wait_for_selector("[data-connection].offline")
        assert host.evaluate(LEAVE)
        kinds = kinds_when(lambda k: k["room_connect"] >= 1)
        context.close()
    finally:
        connections.close_all()
    assert kinds["room_connect"] == 1, kinds
    outcomes = TelemetryEvent.objects.filter(kind="room_connect").values_list("outcome", flat=True)
    assert list(outcomes) == ["failure"]
