"""Issue 26 in a real browser: what a new player saw go wrong on the play screens, each
checked where it is seen (the otetsuki ring, the key badges, the wake lock)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from games.bakudan import number as game_number
from tests.browser.conftest import WatchedPage
from tests.support.wake_lock import FAKE_WAKE_LOCK

from .test_karuta_play import FASTEST, VIEW, start

pytestmark = pytest.mark.browser

# WCAG contrast of every visible <kbd> against the background it is drawn on (the first
# opaque one up the tree): axe skips these badges, so the page is measured directly.
KBD_CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const back = (el) => {
    for (let n = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...document.querySelectorAll("kbd")].filter((k) => k.getClientRects().length).map((k) => {
    const style = getComputedStyle(k);
    const [a, b] = [lum(rgb(style.color)), lum(back(k))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 1;
    return { text: k.textContent, ratio: Math.round(ratio * 100) / 100, opacity: +style.opacity };
  });
}"""


def test_no_otetsuki_ring_before_any_reading(asgi_server, watched):
    page = watched.page
    start(page, asgi_server.url, mode="competitive", memorise="300")
    page.wait_for_function(f"{VIEW} && {VIEW}.phase === 'memorise'")
    page.wait_for_selector(".side-own .kcard")
    cards, ringed = page.evaluate(
        "() => ['.kcard', '.kcard.fault'].map(s => document.querySelectorAll(s).length)"
    )
    assert cards > 0 and ringed == 0, f"{ringed} of {cards} cards ringed in memorisation"
    assert not watched.errors


def test_bakudan_key_badges_are_readable(asgi_server, watched):
    page = watched.page
    number = game_number.encode(3, "calm", 2026)
    page.goto(f"{asgi_server.url}/bakudan/?number={number}")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    page.wait_for_selector("[data-hand] button kbd")
    badges = page.evaluate(KBD_CONTRAST)
    assert badges, "the hand shows its key badges"
    low = [b for b in badges if b["ratio"] < 4.5 or b["opacity"] < 1]
    assert not low, f"key badges below 4.5:1 contrast: {low}"


@pytest.mark.parametrize(
    ("mode", "players", "memorise"),
    [("competitive", None, "300"), ("chirashi", "3", "0"), ("solo", None, "0")],
)
def test_every_karuta_mode_can_be_stopped_and_lets_the_screen_sleep(
    asgi_server, watched, mode, players, memorise
):
    page = watched.page
    page.add_init_script(FAKE_WAKE_LOCK)
    start(page, asgi_server.url, mode=mode, players=players, memorise=memorise)
    # Memorisation and readings keep the screen on.
    page.wait_for_function("() => window.__wake.includes('request screen')")
    assert page.evaluate("window.__wake") == ["request screen"]
    resign = page.locator("[data-room-resign]")
    resign.wait_for(state="visible")
    resign.click()
    page.wait_for_selector("[data-result]:not([hidden])")
    summary = page.text_content("[data-result-summary]")
    assert "投了" in summary and "あなた" in summary, summary
    page.wait_for_function("() => window.__wake.at(-1) === 'release'")
    # The clock's duties stop with the game: a page left on its result draws no more frames.
    page.wait_for_function("() => !window.karutaPlay.ticking()", polling=100)
    assert page.evaluate(f"{VIEW}.phase") in ("memorise", "reading", "send")
    # Nothing reads on: no reading line is left, and the countdown is gone.
    assert page.locator("[data-memorise]").is_hidden()
    assert resign.is_hidden()
    assert not watched.errors


INSIDE = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0
        && r.bottom <= innerHeight && r.right <= innerWidth;
})"""
ZOOM = """() => {
    const zoom = document.querySelector("[data-card-zoom]");
    const card = document.activeElement.getBoundingClientRect();
    const z = zoom.getBoundingClientRect();
    const kana = zoom.querySelector(".kcol span");
    return { hidden: zoom.hidden, inside: z.top >= 0 && z.bottom <= innerHeight,
             covers: !(z.bottom <= card.top || z.top >= card.bottom
                       || z.right <= card.left || z.left >= card.right),
             kana: kana ? parseFloat(getComputedStyle(kana).fontSize) : 0,
             onCard: parseFloat(getComputedStyle(document.activeElement).fontSize) };
}"""


# Two frames with no element changing size: the page's fit (karuta/fit.js) has answered.
SETTLED = """() => new Promise((done) => {
    const sizes = () => [...document.querySelectorAll('.reader, [data-board], [data-board] .kcard')]
        .map((el) => el.getBoundingClientRect().height).join();
    const first = sizes();
    requestAnimationFrame(() => requestAnimationFrame(() => done(sizes() === first)));
})"""


def assert_all_in_view(page, mode, least: int) -> None:
    assert page.evaluate("scrollY") == 0
    field = page.evaluate(
        f"""() => {{ const v = {VIEW};
        return v.mode === 'competitive' ? v.sides.flat(2).length : v.field.length; }}"""
    )
    shown = page.evaluate(INSIDE, "[data-board] .kcard")
    assert len(shown) == field and field >= least, (len(shown), field)
    assert all(shown), f"{shown.count(False)} of {field} cards outside the screen"
    assert page.evaluate(INSIDE, "[data-reading-line]") == [True]
    if mode == "competitive":
        assert all(page.evaluate(INSIDE, ".side-own .kcard"))


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
@pytest.mark.parametrize("mode", ["competitive", "chirashi"])
def test_a_phone_shows_the_whole_field_the_reading_and_your_side(asgi_server, chromium, mode, size):
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="ja-JP", has_touch=True
    )
    watched = WatchedPage(context.new_page())
    page = watched.page
    page.goto(f"{asgi_server.url}/karuta/")
    page.check(f"input[name=mode][value={mode}]")
    page.check("#id_cpu_level_nyumon")
    page.select_option("#id_poem_set", "")  # all 100 poems: the fullest field
    # The engine's fastest pace (the test settings add it to the menu): the layout is what is
    # checked, and the first result and a card to tap come sooner (readings 40 % shorter).
    page.select_option("#id_pace", FASTEST)
    page.select_option("#id_memorise_seconds", "0")
    page.click("button[data-play-mode=cpu]")
    page.wait_for_function(VIEW)
    page.wait_for_function("document.querySelector('[data-reading-line]').innerText.trim() !== ''")
    assert_all_in_view(page, mode, least=50)  # all 100 poems: 50 or 100 cards
    # The first result adds lines above the field (the last result; in chirashi a pile's last
    # card): the board must still fit. A fixed estimate of that height lost chirashi's last row.
    page.wait_for_function("!document.querySelector('[data-last-result]').hidden", timeout=60_000)
    page.wait_for_function(SETTLED)
    assert_all_in_view(page, mode, least=45)  # a few cards taken since
    assert not watched.overflows_horizontally()
    # The kana stay legible: on the card itself, or in the zoom of the focused card, which
    # lies clear of the card.
    page.focus(".side-own .kcard" if mode == "competitive" else "[data-scatter] .kcard")
    zoom = page.evaluate(ZOOM)
    if zoom["onCard"] < 10:
        assert not zoom["hidden"] and zoom["inside"] and not zoom["covers"], zoom
        assert zoom["kana"] >= 10, zoom
    if size == (390, 844):
        # A card tapped, then taken: the focus moves to a neighbouring card, and no enlarged
        # card is left over the header, the title and the sound button (issue 43).
        tap_the_read_card_until_it_is_taken(page)
        after = page.evaluate(AFTER_TAKE)
        assert after["focused"], after  # the focus stays on the board
        assert after["hidden"] and not after["over"], after
    assert not watched.errors


def tap_the_read_card_until_it_is_taken(page) -> None:
    """Tap the card being read (a reading whose card is on the field), as a finger does,
    and wait until it leaves the field (taken by this player or the CPU)."""
    for _ in range(8):
        number = page.evaluate(f"({VIEW}).reading?.number ?? 0")
        page.wait_for_function(
            f"(() => {{ const v = {VIEW}; return (v.reading?.number ?? 0) > {number}"
            " || (v.phase === 'send' && v.send.from === v.you); })()",
            timeout=60_000,
        )
        if page.evaluate(f"({VIEW}).phase === 'send'"):
            # The CPU's fault in competitive: this seat sends it a card, or the game waits.
            page.locator(".side-own .kcard").first.tap()
            continue
        page.wait_for_function(f"(({VIEW}).reading ?? {{}}).poem", timeout=60_000)
        card = f"[data-board] .kcard[data-card='{page.evaluate(f'({VIEW}).reading.poem')}']"
        if not page.locator(card).count():
            continue  # not on the field (a dead card in competitive), or already taken
        page.wait_for_timeout(300)  # the deciding kana shown (a touch before it is a guess)
        try:
            page.locator(card).tap(timeout=2_000)
        except PlaywrightError:
            continue  # taken before the tap
        page.wait_for_selector(card, state="detached", timeout=30_000)
        return
    raise AssertionError("no reading's card could be tapped")


AFTER_TAKE = """() => {
    const zoom = document.querySelector("[data-card-zoom]");
    const z = zoom.getBoundingClientRect();
    const over = [...document.querySelectorAll(".site-header, .play-title, .play-bar")]
        .map((el) => el.getBoundingClientRect())
        .some((r) => r.width > 0 && z.top < r.bottom && z.bottom > r.top
                     && z.left < r.right && z.right > r.left);
    return { hidden: zoom.hidden, over: !zoom.hidden && over,
             focused: document.activeElement?.dataset?.card ?? null };
}"""
