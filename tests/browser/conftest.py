"""Playwright with Debian's Chromium (never a downloaded browser), and axe-core from npm."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"
# The features Playwright itself disables (its chromiumSwitches, Playwright 1.65): Chromium
# keeps only the last --disable-features it is given, so ours repeats them.
# tests/browser/test_chromium.py checks the browser still gets all of Playwright's.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)  # fmt: skip
# New headless Chromium opens a browser window per context, and each window preloads its
# omnibox popup (a WebUI page in a renderer of its own) that no test ever shows: 20
# contexts cost 23.8 CPU s with it and 6.4 without (load 18-21, 7 Dec).
UNSHOWN_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNSHOWN_UI_FEATURES),
]  # fmt: skip


class _Chromium:
    """One Playwright driver and one Chromium for this test process, launched on first use:
    a launch cost 3 s of waiting per test on a loaded machine. Every test still has its own
    browser contexts (cookies, storage, service workers, cache), all closed when it ends.

    Playwright's sync API marks its event loop as this thread's running loop from its start
    to its stop, and its calls need that mark (they make futures on the running loop). While
    marked, Django refuses database calls in this thread (SynchronousOnlyOperation) and
    asyncio.run() refuses to start. So the loop is marked only while a test holds the
    `chromium` fixture, as when each test started its own Playwright: the tests after it
    (and the flush of a database set up before it) see no loop."""

    def __init__(self) -> None:
        self.playwright = None
        self.browser = None

    def get(self):
        from playwright.sync_api import sync_playwright

        assert Path(CHROMIUM).exists(), "apt-get install chromium"
        if self.browser is not None and self.browser.is_connected():
            self.mark()
            return self.browser
        self.stop()
        _functions_not_eval()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        return self.browser

    def mark(self) -> None:
        asyncio.events._set_running_loop(self.playwright._loop)

    @staticmethod
    def unmark() -> None:
        asyncio.events._set_running_loop(None)

    def stop(self) -> None:
        playwright, self.playwright, self.browser = self.playwright, None, None
        if playwright is not None:
            # Marked, as during a call: the driver's loop resumes, ends and unmarks itself.
            asyncio.events._set_running_loop(playwright._loop)
            with contextlib.suppress(Exception):
                playwright.stop()
            self.unmark()


_CHROMIUM = _Chromium()


@pytest.fixture(scope="session")
def _chromium_process():
    yield _CHROMIUM
    _CHROMIUM.stop()


@pytest.fixture
def chromium(_chromium_process):
    """This process's Chromium, with no context open: whatever the test opens (its own
    contexts, `watched`'s) is closed after it, and Playwright's loop is unmarked."""
    browser = _chromium_process.get()
    for context in browser.contexts:  # none, unless closing one failed after a test
        context.close()
    yield browser
    try:
        for context in browser.contexts:
            context.close()
    finally:
        _chromium_process.unmark()


# wait_for_function checks every POLL_MS instead of Playwright's default, every animation
# frame: a frame requested 60 times a second keeps the renderer drawing for as long as a
# test waits (on a static page 1.1 CPU s per 8 s waited, against 0.05 s polling every
# 100 ms, 5 Dec), and the browser tests wait on readings for minutes on two cores (the
# parallel pass: 739 -> 695 CPU s busy, 401.7 -> 380.7 s, 6 Dec). 50 ms is far below
# anything a test waits for (a reaction window is 120 ms).
POLL_MS = 50
_FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")


def _functions_not_eval() -> None:
    """Playwright runs a wait_for_function *expression* through eval() inside the page,
    which the site's CSP (script-src 'self', no 'unsafe-eval') rightly refuses. Given as
    an arrow function it is compiled over DevTools instead, where CSP does not apply: the
    tests keep their expressions and the pages stay under the real policy. It also polls
    every POLL_MS unless the call says otherwise."""
    from playwright.sync_api import Page

    if getattr(Page.wait_for_function, "_as_function", False):
        return
    original = Page.wait_for_function

    def wait_for_function(self, expression, *args, **kwargs):
        if not _FUNCTION.match(expression):
            expression = f"() => ({expression})"
        kwargs.setdefault("polling", POLL_MS)
        return original(self, expression, *args, **kwargs)

    wait_for_function._as_function = True
    Page.wait_for_function = wait_for_function


class WatchedPage:
    """A page that records console errors and uncaught exceptions."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "response",
            lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status} {r.url}"),
        )

    def axe_violations(self, impacts=("serious", "critical")) -> list[dict]:
        assert AXE.exists(), "npm install (axe-core) at the repository root"
        # Evaluated over DevTools, not added as a <script> tag: the site's CSP (script-src
        # 'self') rightly blocks inline scripts, and the page must be tested under it.
        self.page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
        found = self.page.evaluate(
            """async () => (await axe.run(document)).violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 5).map(n => n.target.join(" "))}))"""
        )
        return [v for v in found if v["impact"] in impacts]

    def overflows_horizontally(self) -> bool:
        return self.page.evaluate(
            "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


@pytest.fixture
def watched(chromium):
    # A Japanese visitor: a first visit to an unprefixed page follows Accept-Language, and
    # headless Chromium would say en-US. Contexts made by tests themselves keep that.
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page = WatchedPage(context.new_page())
    yield page
    context.close()


@pytest.fixture
def poems_in_db(transactional_db):
    """transaction=True tests flush the tables the data migration filled: fill them again."""
    from poems.loader import sync_poems
    from poems.models import Poem, Poet

    sync_poems(Poet, Poem)
