"""Playwright with Debian's Chromium (never a downloaded browser), and axe-core from npm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip


@pytest.fixture
def chromium():
    """Per test: Playwright's event loop must be gone before the test database is flushed
    (Django refuses database calls while an event loop runs in the thread)."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "apt-get install chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _functions_not_eval()
        yield browser
        browser.close()


_FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")


def _functions_not_eval() -> None:
    """Playwright runs a wait_for_function *expression* through eval() inside the page,
    which the site's CSP (script-src 'self', no 'unsafe-eval') rightly refuses. Given as
    an arrow function it is compiled over DevTools instead, where CSP does not apply: the
    tests keep their expressions and the pages stay under the real policy."""
    from playwright.sync_api import Page

    if getattr(Page.wait_for_function, "_as_function", False):
        return
    original = Page.wait_for_function

    def wait_for_function(self, expression, *args, **kwargs):
        if not _FUNCTION.match(expression):
            expression = f"() => ({expression})"
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
