"""The kimariji trainer in a real browser: a session, persistence, offline, export/import."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import WatchedPage

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DRILL = "document.getElementById('drill')"
SUMMARY = "document.getElementById('summary')"
PROGRESS = "document.getElementById('drill-progress')"
QUESTION = "document.getElementById('drill-question')"


def open_trainer(watched, url: str):
    page = watched.page
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
    return page


def answer_choice_drill(page, cards: int, right: bool = True) -> None:
    """Answer `cards` questions of a choice drill by keyboard: the right card, or a wrong one."""
    data = json.loads(page.locator("#trainer-data").text_content())
    said = {p["n"]: p["said"] for p in data["poems"]}
    for _ in range(cards):
        page.wait_for_function(f"() => !{DRILL}.hidden || !{SUMMARY}.hidden")
        if page.locator("#drill").is_hidden():
            return
        shown = page.locator("#drill-question .big-kimariji").inner_text()
        options = page.locator("#drill-options button")
        numbers = [int(options.nth(i).get_attribute("data-poem")) for i in range(options.count())]
        target = next(n for n in numbers if "".join(said[n]).startswith(shown))
        pick = (
            numbers.index(target)
            if right
            else next(i for i, n in enumerate(numbers) if n != target)
        )
        before = page.locator("#drill-progress").inner_text()
        page.keyboard.press(str(pick + 1))
        if right:
            page.wait_for_function(
                f"(before) => {DRILL}.hidden || {PROGRESS}.textContent !== before",
                arg=before,
            )


def grid_states(page) -> dict[int, str]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#poem-grid li')].map(
            (li) => [li.dataset.poem, li.className.replace('cell status-', '')]))"""
    )


def test_ten_card_session_persists_over_reload(asgi_server, watched):
    page = open_trainer(watched, f"{asgi_server.url}/en/karuta/trainer/")
    assert page.locator("#due-count").inner_text() == "Today's review: 10 cards"
    assert set(grid_states(page).values()) == {"new"}
    page.select_option("#drill-set", "all")
    page.select_option("#drill-count", "10")
    page.locator("#start-drill").focus()
    page.keyboard.press("Enter")
    answer_choice_drill(page, 10)
    page.locator("#summary").wait_for(state="visible")
    assert page.locator("#summary-text").inner_text().startswith("10 of 10 right")
    states = grid_states(page)
    assert sum(1 for s in states.values() if s != "new") == 10
    # New poems met today count against the day's ten: the review now holds only what is due.
    due_text = page.locator("#due-count").inner_text()
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
    assert grid_states(page) == states
    assert page.locator("#due-count").inner_text() == due_text
    assert watched.errors == []


def test_export_forget_import_restores_the_same_states(asgi_server, watched, tmp_path):
    page = open_trainer(watched, f"{asgi_server.url}/en/karuta/trainer/")
    page.locator("#start-review").click()
    answer_choice_drill(page, 3)
    page.keyboard.press("Escape")
    page.locator("#summary").wait_for(state="visible")
    before = grid_states(page)
    assert sum(1 for s in before.values() if s != "new") == 3
    with page.expect_download() as download:
        page.locator("#export-data").click()
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    exported = json.loads(saved.read_text())
    assert exported["format"] == "hyakunin-trainer" and len(exported["log"]) == 3

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#forget-data").click()
    page.wait_for_function(
        "() => document.getElementById('data-message').textContent.includes('forgotten')"
    )
    assert set(grid_states(page).values()) == {"new"}

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**exported, "poems": [{"n": 500}]}))
    page.set_input_files("#import-data", str(bad))
    page.wait_for_function(
        "() => document.getElementById('data-message').textContent.includes('damaged')"
    )
    assert set(grid_states(page).values()) == {"new"}

    page.set_input_files("#import-data", str(saved))
    page.wait_for_function(
        "() => document.getElementById('data-message').textContent.includes('restored')"
    )
    assert grid_states(page) == before
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
    assert grid_states(page) == before
    assert watched.errors == []


KEPT = """async () => {
    if (!navigator.serviceWorker.controller) return false;
    const urls = [location.href, ...performance.getEntriesByType('resource')
        .map((e) => e.name).filter((u) => u.includes('/static/'))];
    for (const url of urls) if (!(await caches.match(url, { ignoreVary: true }))) return false;
    return true;
}"""


def poll(page, predicate: str, arg=None, timeout_s: float = 30) -> None:
    """Wait until an async predicate holds. (wait_for_function takes the promise an async
    predicate returns for a truthy answer and returns at once.)"""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {predicate}"
        page.wait_for_timeout(250)


def test_trainer_kimariji_and_rules_pages_open_offline(asgi_server, chromium):
    context = chromium.new_context(locale="ja-JP", viewport=PHONE)
    page = context.new_page()
    pages = ["/karuta/trainer/", "/kimariji/", "/karuta/", "/en/karuta/trainer/"]
    for path in pages:
        page.goto(f"{asgi_server.url}{path}")
        poll(page, KEPT, timeout_s=15)
    assert page.locator("#offline-note").is_hidden()
    context.set_offline(True)
    try:
        page.goto(f"{asgi_server.url}/karuta/trainer/")
        page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
        assert page.locator("#offline-note").is_visible()
        assert page.locator("#poem-grid li").count() == 100
        page.goto(f"{asgi_server.url}/kimariji/")
        assert page.locator("article.poem").count() == 100
        page.goto(f"{asgi_server.url}/karuta/")
        assert page.locator("#offline-note").is_visible()  # the menu's games need the server
        header = "() => getComputedStyle(document.querySelector('.site-header')).borderBottomStyle"
        assert page.evaluate(header) == "solid"  # its stylesheet came from the cache too
        with pytest.raises(PlaywrightError):  # a page never visited is not kept
            page.goto(f"{asgi_server.url}/bozu/")
    finally:
        context.set_offline(False)
        context.close()


@pytest.mark.parametrize("prefix", ["/", "/en/", "/zh-hans/"])
def test_axe_phone_width_and_keyboard_only_typed_drills(asgi_server, chromium, prefix):
    context = chromium.new_context(locale="ja-JP", viewport=PHONE, reduced_motion="reduce")
    watched = WatchedPage(context.new_page())
    page = open_trainer(watched, f"{asgi_server.url}{prefix}karuta/trainer/")
    assert not watched.overflows_horizontally()
    assert watched.axe_violations() == []
    # Keyboard only: pick the drill, the one-kana set, start, type the answers.
    data = json.loads(page.locator("#trainer-data").text_content())
    poems = {p["n"]: p for p in data["poems"]}
    page.locator("#drill-set").focus()
    page.select_option("#drill-set", "one-kana")
    page.select_option("#drill-kind", "kimariji-type")
    page.locator("#start-drill").focus()
    page.keyboard.press("Enter")
    page.locator("#drill-input").wait_for(state="visible")
    assert watched.axe_violations() == []
    assert not watched.overflows_horizontally()
    tori_to_n = {p["tori"].replace(" ", ""): n for n, p in poems.items()}
    for i in range(7):
        card = page.locator("#drill-question .mini-card").inner_text().replace("\n", "")
        n = tori_to_n[card]
        typed = "".join(poems[n]["said"][:1])  # the one-kana poems: one sound decides
        page.wait_for_function("() => document.activeElement.id === 'drill-input'")
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        if i < 6:
            page.wait_for_function(f"() => {QUESTION}.textContent !== {card!r}")
    page.locator("#summary").wait_for(state="visible")
    assert page.evaluate("() => document.activeElement.id") == "summary"
    assert "7" in page.locator("#summary-text").inner_text()
    assert sum(1 for s in grid_states(page).values() if s != "new") == 7
    assert watched.axe_violations() == []
    assert watched.errors == []
    context.close()


def test_fuda_nagashi_runs_against_its_clock(asgi_server, watched):
    page = open_trainer(watched, f"{asgi_server.url}/en/karuta/trainer/")
    page.select_option("#drill-kind", "nagashi")
    assert page.locator("#drill-count").is_hidden() and page.locator("#drill-clock").is_visible()
    page.select_option("#drill-clock", "60000")
    page.select_option("#drill-set", "length-6")
    page.locator("#start-drill").click()
    assert page.locator("#drill-options button").count() == 4
    assert re.fullmatch(r"\d+ s left", page.locator("#drill-clock-left").inner_text())
    page.keyboard.press("1")
    page.keyboard.press("Escape")
    page.locator("#summary").wait_for(state="visible")
    assert watched.errors == []


def test_without_storage_the_trainer_runs_for_the_session_and_says_so(asgi_server, chromium):
    context = chromium.new_context(locale="en-US")
    context.add_init_script("Object.defineProperty(window, 'indexedDB', { value: undefined })")
    watched = WatchedPage(context.new_page())
    page = open_trainer(watched, f"{asgi_server.url}/en/karuta/trainer/")
    note = page.locator("#storage-note")
    assert note.is_visible() and "private mode" in note.inner_text()
    page.locator("#start-review").click()
    answer_choice_drill(page, 2)
    page.keyboard.press("Escape")
    assert sum(1 for s in grid_states(page).values() if s != "new") == 2
    assert watched.errors == []
    context.close()


def test_home_page_counts_todays_review_from_this_browser(asgi_server, watched):
    page = open_trainer(watched, f"{asgi_server.url}/en/karuta/trainer/")
    page.locator("#start-review").click()
    answer_choice_drill(page, 10)
    page.locator("#summary").wait_for(state="visible")
    expected = page.locator("#due-count").inner_text()
    page.goto(f"{asgi_server.url}/en/")
    page.locator("#trainer-due").wait_for(state="visible")
    assert page.locator("#trainer-due").inner_text() == expected
    assert page.locator(".home-daily article.poem").count() == 1
    assert watched.errors == []


VOICED = """() => { window.__voiced = [];
    document.addEventListener('trainer:voiced', (e) => window.__voiced.push(e.detail)); }"""


def shown_poem(page, data) -> int:
    shown = page.locator("#drill-question .big-kimariji").inner_text()
    options = page.locator("#drill-options button")
    numbers = [int(options.nth(i).get_attribute("data-poem")) for i in range(options.count())]
    said = {p["n"]: "".join(p["said"]) for p in data["poems"]}
    return next(n for n in numbers if said[n].startswith(shown))


def answer_right(page, data) -> None:
    n = shown_poem(page, data)
    options = page.locator("#drill-options button")
    numbers = [int(options.nth(i).get_attribute("data-poem")) for i in range(options.count())]
    before = page.locator("#drill-progress").inner_text()
    page.keyboard.press(str(numbers.index(n) + 1))
    page.wait_for_function(f"(b) => {DRILL}.hidden || {PROGRESS}.textContent !== b", arg=before)


QUESTION_IN_VIEW_AND_FOCUSED = """() => {
    const q = document.getElementById('drill-question').getBoundingClientRect();
    return q.height > 0 && q.top >= 0 && q.bottom <= innerHeight
        && document.getElementById('drill-options').contains(document.activeElement);
}"""


ALL_CACHED = "async (urls) => (await Promise.all(urls.map((u) => caches.match(u)))).every(Boolean)"


def test_the_kimariji_is_heard_muted_on_demand_and_offline(asgi_server, chromium):
    context = chromium.new_context(locale="ja-JP", viewport=PHONE)
    watched = WatchedPage(context.new_page())
    page = open_trainer(watched, f"{asgi_server.url}/karuta/trainer/")  # its longer intro
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    data = json.loads(page.locator("#trainer-data").text_content())
    table = json.loads(page.locator("#trainer-voice").text_content())
    page.evaluate(VOICED)
    page.select_option("#drill-set", "all")
    page.locator("#start-drill").click()
    # The question comes into view and the answers take the focus (the drill lies below
    # the fold on a phone, and the focus used to stay on the start button).
    page.wait_for_function(QUESTION_IN_VIEW_AND_FOCUSED, timeout=5000)
    toggle = page.locator("#voice-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-pressed") == "true"
    # The first card is heard: its clips up to the deciding kana, as the table names them.
    page.wait_for_function("() => window.__voiced.length === 1")
    first = shown_poem(page, data)
    heard = page.evaluate("() => window.__voiced[0]")
    assert heard == {"n": first, "urls": [clip[0] for clip in table[str(first)]]}
    # Muted (by keyboard) for the second card, heard again on the third.
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-pressed") == "false"
    answer_right(page, data)
    # The card is read after the frame that shows it (after-frame.js: a frame, then a
    # task): unmuting before that would have it read.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-pressed") == "true"
    answer_right(page, data)
    third = shown_poem(page, data)
    page.wait_for_function("() => window.__voiced.length >= 2")
    assert [v["n"] for v in page.evaluate("() => window.__voiced")] == [first, third]
    page.keyboard.press("Escape")
    # With the voice on, the service worker keeps every clip of the table, not only those
    # heard: offline, a drill's cards are heard too (issue 43: 8 failed requests before).
    urls = sorted({clip[0] for chain in table.values() for clip in chain})
    poll(page, ALL_CACHED, urls)
    context.set_offline(True)
    try:
        page.reload()
        page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")
        page.evaluate(VOICED)
        page.select_option("#drill-set", "all")
        page.locator("#start-drill").click()
        for i in range(3):  # three cards, most never heard online
            page.wait_for_function("(n) => window.__voiced.length === n", arg=i + 1)
            n = shown_poem(page, data)
            assert page.evaluate("(i) => window.__voiced[i]", i) == {
                "n": n,
                "urls": [clip[0] for clip in table[str(n)]],
            }
            answer_right(page, data)
        page.keyboard.press("Escape")
    finally:
        context.set_offline(False)
    assert watched.errors == []
    context.close()
