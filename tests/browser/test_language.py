"""The language switch in a real browser, in all six directions (ja ↔ en ↔ zh-hans), and
a first visit that follows the browser's language (issue 15, item 6)."""

from __future__ import annotations

import itertools

import pytest

pytestmark = pytest.mark.browser

PREFIX = {"ja": "", "en": "/en", "zh-hans": "/zh-hans"}
NAMES = {"ja": "日本語", "en": "English", "zh-hans": "简体中文"}
# A tour that takes every one of the six directions once.
TOUR = ["ja", "en", "zh-hans", "ja", "zh-hans", "en", "ja"]


def test_the_switch_goes_every_way_between_the_three_languages(asgi_server, watched):
    page = watched.page
    page.goto(f"{asgi_server.url}/credits/")
    taken = []
    for here, there in itertools.pairwise(TOUR):
        assert page.locator("html").get_attribute("lang") == here
        assert page.url == f"{asgi_server.url}{PREFIX[here]}/credits/"
        options = page.locator("#language-select option")
        assert options.all_inner_texts() == list(NAMES.values())  # own script, any page
        page.select_option("#language-select", there)
        with page.expect_navigation():
            page.locator(".language-switch button[type=submit]").click()
        taken.append((here, there))
        assert page.locator("html").get_attribute("lang") == there, (here, there)
        assert page.url == f"{asgi_server.url}{PREFIX[there]}/credits/", (here, there)
    assert len(set(taken)) == 6
    assert watched.errors == []


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("zh-CN", "zh-hans")])
def test_a_first_visit_follows_the_browser_language(asgi_server, chromium, locale, lang):
    context = chromium.new_context(locale=locale)
    try:
        page = context.new_page()
        page.goto(asgi_server.url + "/")
        assert page.url == f"{asgi_server.url}{PREFIX[lang]}/"
        assert page.locator("html").get_attribute("lang") == lang
        # Choosing Japanese then sticks, whatever the browser prefers.
        page.select_option("#language-select", "ja")
        with page.expect_navigation():
            page.locator(".language-switch button[type=submit]").click()
        page.goto(asgi_server.url + "/")
        assert page.url == f"{asgi_server.url}/"
        assert page.locator("html").get_attribute("lang") == "ja"
    finally:
        context.close()
