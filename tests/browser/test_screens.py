"""Screenshots of every play screen at the three sizes the issue names (CI artifacts under
test-artifacts/screens/), and the checks that the boards fit the screen.

Each screen is reached the way a player reaches it (the menu, then a mode button); the
karuta pages wait (in real time) until a reading is on screen when the picture is taken.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_bozu import DRAW_OR_RESULT
from tests.browser.test_karuta_play import VIEW

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (1366, 768), (390, 844)]
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# Pictures of the settled screen: running motions (a flip, a slide) are let finish first.
SETTLED = """() => { scrollTo(0, 0);
    return Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))); }"""


def shoot(page, name: str) -> None:
    folder = ARTIFACTS / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)
        page.evaluate(SETTLED)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.screenshot(path=str(folder / f"{name}-{width}x{height}.png"))


def start_karuta(page, base: str, mode: str) -> None:
    page.goto(f"{base}/karuta/")
    page.check(f"input[name=mode][value={mode}]")
    # The reading runs in real time: the engine's fastest pace (20 kana a second, in the menu
    # under the test settings, KARUTA_EXTRA_PACES) gets to the first poem soonest.
    page.select_option("#id_pace", "20")
    page.click(f"button[data-play-mode={'solo' if mode == 'solo' else 'cpu'}]")
    page.wait_for_function(VIEW)
    if page.is_visible("[data-skip]"):
        page.click("[data-skip]")
    page.wait_for_function("window.karutaPlay.view().phase === 'reading'")
    # Into the upper verse (real time: the server releases it as it is read): the poem is
    # named and its deciding kana has been on screen a moment.
    # The first competitive reading opens with the 序歌 (4.7 s at that pace, 7.8 s at 12).
    # The reading is taken in the same look that sees its poem: at pace 20 a CPU can take the
    # card and the next reading (poem not yet known) begin between two looks.
    r = page.wait_for_function(
        "() => { const r = window.karutaPlay.view().reading; return r?.poem != null && r; }",
        timeout=60000,
    ).json_value()
    # …unless a CPU took the card first and the next reading began (its clock starts again).
    page.wait_for_function(
        "([t, n]) => window.karutaPlay.clock() >= t"
        " || window.karutaPlay.view().reading?.number !== n",
        arg=[r["decided"] + 400, r["number"]],
        timeout=10000,
    )
    page.wait_for_function("document.querySelector('[data-reading-line]').textContent !== ''")


@pytest.mark.parametrize("mode", ["competitive", "chirashi", "solo"])
def test_karuta_screens(asgi_server, watched, mode):
    page = watched.page
    start_karuta(page, asgi_server.url, mode)
    shoot(page, f"karuta-{mode}")
    assert watched.errors == []


def test_bozu_screens(asgi_server, poems_in_db, watched):
    page = watched.page
    page.goto(f"{asgi_server.url}/bozu/")
    shoot(page, "bozu-menu")
    page.click("button[name=play_mode][value=cpu]")
    page.wait_for_selector("[data-panel-draw][aria-disabled=false]")
    for _ in range(6):
        page.wait_for_selector(DRAW_OR_RESULT)
        if page.is_visible("[data-result]"):
            break
        page.click("[data-panel-draw]")
    shoot(page, "bozu-play")
    # The result's pictures (bozu-result-*) are taken at the end of test_bozu.py's whole
    # game against the CPU: a Bozu game played to its end costs Chromium about 12 CPU s.
    assert watched.errors == []
