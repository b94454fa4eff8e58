"""Accounts in Debian's Chromium with its virtual authenticator (CDP WebAuthn), never a mock
of the ceremony: sign up with a passkey, sign out, sign in with it; a second browser signs in
with a one-time code from the first; both see the session list. Served on
http://localhost:<port>: a WebAuthn relying-party id is a domain, never 127.0.0.1."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import WatchedPage

pytestmark = pytest.mark.browser


def with_authenticator(context, page):
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {"options": {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                     "hasUserVerification": True, "isUserVerified": True}},
    )  # fmt: skip
    return cdp, found["authenticatorId"]


def test_passkey_sign_up_sign_out_sign_in_and_a_second_device_by_code(asgi_server, chromium):
    site = f"http://localhost:{asgi_server.port}"
    first = chromium.new_context(locale="en-US")
    page = first.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    cdp, authenticator = with_authenticator(first, page)

    page.goto(f"{site}/en/account/signup/")
    assert WatchedPage(page).axe_violations() == []
    page.fill("#passkey-handle", "Ｈａｎａｋｏ")
    page.press("#passkey-handle", "Enter")  # by keyboard: Enter in the handle starts it
    page.wait_for_url(re.compile(r"/account/welcome/$"))
    codes = page.locator("[data-recovery-codes] code").all_inner_texts()
    assert len(codes) == 10 and all(re.fullmatch(r"[A-Z0-9]{4}(-[A-Z0-9]{4}){2}", c) for c in codes)
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    assert credentials["credentials"][0]["isResidentCredential"]
    assert credentials["credentials"][0]["rpId"] == "localhost"

    page.goto(f"{site}/en/account/")
    assert page.locator("[data-nav-account]").inner_text() == "Hanako"
    page.click("[data-signout]")
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator("[data-nav-signin]").count() == 1

    page.goto(f"{site}/en/account/signin/")
    page.focus("[data-passkey-signin]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/en/account/$"))
    assert "Signed in as Hanako." in page.inner_text("main")
    signs = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert signs["credentials"][0]["signCount"] >= 1

    page.click("[data-new-code]")
    code = page.locator("[data-signin-code]").inner_text()

    second = chromium.new_context(locale="en-US")  # no authenticator at all
    other = second.new_page()
    other.goto(f"{site}/en/account/signin/")
    other.fill("#signin-code", code)
    other.press("#signin-code", "Enter")
    other.wait_for_url(re.compile(r"/en/account/$"))
    assert other.locator("[data-nav-account]").inner_text() == "Hanako"

    page.goto(f"{site}/en/account/")
    assert WatchedPage(page).axe_violations() == []
    sessions = page.locator("[data-sessions] li").all_inner_texts()
    assert len(sessions) == 2 and sum("(this device)" in s for s in sessions) == 1
    # Sign out everywhere from the first: the second is out too.
    page.click("[data-signout-everywhere]")
    other.goto(f"{site}/en/account/")
    assert "/account/signin/" in other.url
    assert errors == []
