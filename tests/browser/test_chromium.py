"""The Chromium the browser tests drive: launched with our switches, and Playwright's kept."""

from __future__ import annotations

import pytest

from tests.browser.conftest import UNSHOWN_UI_FEATURES

pytestmark = pytest.mark.browser


def disabled_features(command_line: str) -> list[set[str]]:
    """Each --disable-features of a command line, in order, as a set of feature names."""
    return [
        set(part.split("=", 1)[1].split(","))
        for part in command_line.split()
        if part.startswith("--disable-features=")
    ]


def test_playwrights_disabled_features_are_kept_and_no_omnibox_popup_is_opened(chromium):
    context = chromium.new_context()
    page = context.new_page()
    page.goto("chrome://version")
    command_line = page.locator("#command_line").inner_text()
    playwrights, *_, ours = disabled_features(command_line)
    # Chromium keeps the last one only: ours must still name every feature Playwright's does
    # (else update PLAYWRIGHT_DISABLED_FEATURES in tests/browser/conftest.py).
    assert playwrights <= ours, sorted(playwrights - ours)
    assert set(UNSHOWN_UI_FEATURES) <= ours
    targets = chromium.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    assert targets and not [t["url"] for t in targets if "omnibox" in t["url"]]
