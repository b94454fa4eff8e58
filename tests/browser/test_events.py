"""An event in real browsers (issue 42), one test for all of it (each page load costs about
a CPU second): an organiser creates a 4-entrant knockout with the form, three other
signed-in people join by its link (one by keyboard alone), the rounds start by themselves
(the server's own events ticker), one entrant takes their seat from the event page, and the
bracket shows the champion live.

Said plainly: the people are signed in by a session made with Django's force_login (the
sign-in ceremonies have their own browser tests); the organiser picks a start a few
minutes ahead and the test then moves that time to now instead of waiting; and every board
is ended through the match layer's real finish path (a resignation: commit, then
match_finished to the events' receiver), not by playing karuta games out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Board, Event, Round
from matches import rooms
from tests.browser.test_lobby import DESKTOP, orm, signed_in_context
from tests.support.server import AsgiServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


def start_now(code: str) -> None:
    """The organiser's start time, brought forward to now (instead of waiting for it)."""
    event = Event.objects.get(code=code)
    now = timezone.now()
    Event.objects.filter(pk=event.pk).update(starts_at=now)
    Round.objects.filter(event=event, number=1).update(due_at=now)


def boards_of(code: str, number: int, count: int) -> list[tuple[int, str, int, int]]:
    """The round's boards once all `count` have their match (else [])."""
    found = [
        (b.pk, str(b.match_id), b.a.user_id, b.b.user_id)
        for b in Board.objects.filter(
            event__code=code, round__number=number, match_id__isnull=False
        )
        .select_related("a", "b")
        .order_by("position")
    ]
    return found if len(found) == count else []


def resign(match_id: str, seat: int) -> None:
    rooms.resign(match_id, [seat], seat)


def wait_for(fn, *args, timeout: float = 20.0):
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = orm(fn, *args)
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError(f"{fn.__name__} found nothing in {timeout} s")


def test_a_club_knockout_runs_from_the_form_to_its_champion(transactional_db, chromium):
    server = AsgiServer(extra_env={"EVENTS_TICKER": "1"})
    server.start()
    errors: list[str] = []
    contexts = []
    try:
        host_ctx, _host = signed_in_context(chromium, server, "host", DESKTOP)
        contexts.append(host_ctx)
        host = host_ctx.new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(f"{server.url}/en/events/new/")
        host.fill("#id_name", "Kyoto club night")
        host.select_option("#id_pace", "20")
        host.select_option("#id_memorise_seconds", "0")
        host.select_option("#id_break_seconds", "0")
        later = timezone.now() + timedelta(minutes=5)
        host.evaluate(
            "v => { const i = document.getElementById('id_starts_at'); i.value = v;"
            " document.querySelector('input[name=tz_offset]').value = '0'; }",
            later.strftime("%Y-%m-%dT%H:%M"),
        )
        host.check("#id_by_link")
        host.click("#event-form button[type=submit]")
        host.wait_for_selector("#share-link", timeout=15_000)
        link = host.input_value("#share-link")
        code = host.url.rstrip("/").rsplit("/", 1)[1]
        assert "?key=" in link

        people = []
        for i, name in enumerate(("aoi", "ren", "sou")):
            ctx, user = signed_in_context(chromium, server, name, DESKTOP)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            if i == 0:  # keyboard alone
                page.focus("#join-button")
                page.keyboard.press("Enter")
            else:
                page.click("#join-button")
            page.wait_for_selector("#join-button", state="detached")
            people.append((user, page))
        # The organiser enters too: four entrants.
        host.click("#join-button")
        host.wait_for_selector("#join-button", state="detached")

        orm(start_now, code)
        first = wait_for(boards_of, code, 1, 2)
        assert len(first) == 2
        # One entrant's page offers their board (live, by polling); it opens the match with
        # their seat.
        _aoi, aoi_page = people[0]
        aoi_page.wait_for_selector("#my-board", timeout=15_000)
        aoi_page.click("#my-board")
        aoi_page.wait_for_url("**/play/*/")
        assert any(aoi_page.url.rstrip("/").endswith(match) for _b, match, _a, _o in first)
        aoi_page.wait_for_function("() => window.karutaPlay && window.karutaPlay.view()")
        assert aoi_page.evaluate("window.karutaPlay.view().you") in (0, 1)

        # Seat 1 resigns on every board: the better seed (seat 0) goes through.
        for _board, match_id, _a, _b in first:
            orm(resign, match_id, 1)
        (final,) = wait_for(boards_of, code, 2, 1)
        champion_id = final[2]
        host.wait_for_selector("text=Round 2", timeout=15_000)
        orm(resign, final[1], 1)
        host.wait_for_selector(".champion", timeout=15_000)
        champion = host.inner_text(".champion")
        handle = orm(lambda: Board.objects.get(pk=final[0]).a.user.get_username())
        assert handle in champion
        assert orm(lambda: Event.objects.get(code=code).status) == Event.Status.FINISHED
        assert champion_id == orm(lambda: Board.objects.get(pk=final[0]).winner.user_id)
        # Every board is one click from its watch page.
        assert host.locator("a", has_text="Replay").count() == 3
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()
