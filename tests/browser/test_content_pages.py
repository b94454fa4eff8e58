"""The kimariji page and the karuta rules page in a real browser, on the real ASGI server."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LANGUAGES = [("/", "ja"), ("/en/", "en"), ("/zh-hans/", "zh-hans")]
EXPECTED_GROUPS = {1: 7, 2: 42, 3: 37, 4: 6, 5: 2, 6: 6}
PHONE = {"width": 360, "height": 780}


def kimariji_of(page, number: int) -> str:
    return page.locator(f"#poem-{number} [data-role=kimariji]").inner_text()


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_kimariji_page_and_demo(asgi_server, watched, prefix, lang):
    page = watched.page
    page.goto(f"{asgi_server.url}{prefix}kimariji/")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("article.poem").count() == 100
    sizes = {
        length: page.locator(f"#group-{length} article.poem").count() for length in EXPECTED_GROUPS
    }
    assert sizes == EXPECTED_GROUPS

    # The demo is ready once its buttons are shown.
    toggle_42 = page.locator("#poem-42 button.read-toggle")
    toggle_42.wait_for(state="visible")
    assert kimariji_of(page, 75) == "ちぎりお"
    assert page.locator("#poem-75 mark.kimariji").inner_text() == "ちぎりお"

    # Keyboard: focus the button for ちぎりきな (poem 42) and press Space.
    toggle_42.focus()
    page.keyboard.press("Space")
    assert toggle_42.get_attribute("aria-pressed") == "true"
    assert kimariji_of(page, 75) == "ちぎ"
    assert page.locator("#poem-75 mark.kimariji").inner_text() == "ちぎ"
    assert "is-shorter" in page.locator("#poem-75").get_attribute("class")
    status = page.locator("[data-role=status]").inner_text()
    assert "1" in status
    assert kimariji_of(page, 17) == "ちは"  # ちはやぶる needed only ちは all along

    # Reading あさぼらけう (64) shortens あさぼらけあ (31) to あさぼ; Enter undoes 42.
    page.locator("#poem-64 button.read-toggle").click()
    assert kimariji_of(page, 31) == "あさぼ"
    toggle_42.focus()
    page.keyboard.press("Enter")
    assert toggle_42.get_attribute("aria-pressed") == "false"
    assert kimariji_of(page, 75) == "ちぎりお"
    page.locator("[data-role=reset]").click()
    assert kimariji_of(page, 31) == "あさぼらけあ"
    assert page.locator(".read-toggle[aria-pressed=true]").count() == 0

    watched.screenshot(f"kimariji-{lang}-desktop")
    assert watched.axe_violations() == []
    page.set_viewport_size(PHONE)
    assert not watched.overflows_horizontally()
    watched.screenshot(f"kimariji-{lang}-phone")
    assert watched.errors == []


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_karuta_rules_page(asgi_server, watched, prefix, lang):
    page = watched.page
    page.goto(f"{asgi_server.url}{prefix}karuta/")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").count() == 1
    assert page.locator("figure.otetsuki-case").count() == 10
    # The table of contents reaches each section.
    page.locator('.page-toc a[href="#faq"]').click()
    assert page.evaluate("location.hash") == "#faq"
    watched.screenshot(f"karuta-{lang}-desktop")
    assert watched.axe_violations() == []
    page.set_viewport_size(PHONE)
    page.goto(f"{asgi_server.url}{prefix}karuta/#competitive")
    assert not watched.overflows_horizontally()
    watched.screenshot(f"karuta-{lang}-phone")
    assert watched.errors == []
