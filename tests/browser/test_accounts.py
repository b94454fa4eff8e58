"""Accounts in Debian's Chromium with its virtual authenticator (CDP WebAuthn), never a mock
of the ceremony: sign up with a passkey, sign out, sign in with it; a second browser signs in
with a one-time code from the first; both see the session list; assertions Chromium signs for
another origin or with a sign counter gone backwards are refused. Served on
http://localhost:<port>: a WebAuthn relying-party id is a domain, never 127.0.0.1."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from tests.browser.conftest import WatchedPage
from tests.support.server import AsgiServer

pytestmark = pytest.mark.browser


# Whether the offline cache holds a page (not a static file) whose text names `handle`.
OFFLINE_COPY_NAMES = """async (handle) => {
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.startsWith("/static/")) continue;
      if ((await (await cache.match(request)).text()).includes(handle)) return true;
    }
  }
  return false;
}"""


VENDORED_WEBAUTHN = (
    Path(__file__).resolve().parents[2] / "static/vendor/simplewebauthn/index.umd.min.js"
)
# A POST from the page with its CSRF token, as static/js/players/page.js posts.
POST_JSON = """async ([url, body]) => {
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const response = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
    body: JSON.stringify(body)});
  return {status: response.status, body: await response.json().catch(() => null)};
}"""


def with_authenticator(context, page):
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {"options": {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                     "hasUserVerification": True, "isUserVerified": True}},
    )  # fmt: skip
    return cdp, found["authenticatorId"]


@pytest.fixture
def server(transactional_db):
    """Its own server (not a warm fork): the lockout on, as in production."""
    server = AsgiServer(extra_env={"DJANGO_SETTINGS_MODULE": "tests.browser.accounts_settings"})
    server.start()
    yield server
    server.stop()


def test_passkey_sign_up_sign_out_sign_in_and_a_second_device_by_code(server, chromium):
    site = f"http://localhost:{server.port}"
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

    # A page the service worker keeps offline, with the handle in its header...
    page.goto(f"{site}/en/privacy/")
    page.wait_for_function(OFFLINE_COPY_NAMES, arg="Hanako", timeout=20_000)
    page.goto(f"{site}/en/account/")
    assert page.locator("[data-nav-account]").inner_text() == "Hanako"
    page.click("[data-signout]")
    page.wait_for_url(re.compile(r"/$"))
    page.wait_for_selector("[data-nav-signin]")
    # ...is dropped at sign-out, so an offline visit shows no one's handle.
    assert not page.evaluate(OFFLINE_COPY_NAMES, "Hanako")
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

    # A phone, with no authenticator at all.
    second = chromium.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    other = second.new_page()
    other.goto(f"{site}/en/account/signin/")
    assert not WatchedPage(other).overflows_horizontally()
    other.fill("#signin-code", code)
    other.press("#signin-code", "Enter")
    other.wait_for_url(re.compile(r"/en/account/$"))
    assert other.locator("[data-nav-account]").inner_text() == "Hanako"
    assert not WatchedPage(other).overflows_horizontally()
    other.click("[data-new-code]")  # the code page on a phone: a long link and a QR code
    assert other.locator("[data-signin-qr] svg").is_visible()
    assert not WatchedPage(other).overflows_horizontally()

    page.goto(f"{site}/en/account/")
    assert WatchedPage(page).axe_violations() == []
    sessions = page.locator("[data-sessions] li").all_inner_texts()
    assert len(sessions) == 2 and sum("(this device)" in s for s in sessions) == 1
    # Sign out everywhere from the first: the second is out too.
    page.click("[data-signout-everywhere]")
    page.wait_for_selector("[data-nav-signin]")
    other.goto(f"{site}/en/account/")
    assert "/account/signin/" in other.url

    # A password account on the second browser: wrong passwords lock its handle, and then
    # even the right one is refused (a passkey account has no password to guess).
    other.goto(f"{site}/en/account/signup/")
    other.fill("#id_handle", "taro_2")
    other.fill("#id_password", "plum-blossom-417")
    other.click("text=Make the account with a password")
    other.wait_for_url(re.compile(r"/account/welcome/$"))
    other.goto(f"{site}/en/account/")
    other.click("[data-signout]")
    other.wait_for_selector("[data-nav-signin]")
    statuses = []
    for password in ["wrong-1", "wrong-2", "wrong-3", "wrong-4", "wrong-5", "plum-blossom-417"]:
        other.goto(f"{site}/en/account/signin/")
        other.fill("#signin-handle", "TARO_2")
        other.fill("#signin-password", password)
        with other.expect_response(re.compile(r"/signin/password/$")) as answer:
            other.press("#signin-password", "Enter")
        statuses.append(answer.value.status)
    assert statuses == [400, 400, 400, 400, 429, 429], statuses
    assert "this handle is locked for a while" in other.inner_text("[data-signin-error]")
    other.goto(f"{site}/en/account/")
    assert "/account/signin/" in other.url

    # Two assertions Chromium's authenticator really signs, which the server must refuse.
    # (1) Made for another origin: a page at another port of localhost may ask for the same
    # rp id, so it gets a valid signature over clientData naming its own origin; relayed to
    # the site with the site's own challenge, it is refused and signs no one in.
    elsewhere = f"http://localhost:{server.port + 1}"
    page.route(f"{elsewhere}/", lambda route: route.fulfill(
        body="<!doctype html><html lang=en><title>elsewhere</title></html>",
        content_type="text/html",
    ))  # fmt: skip
    page.goto(f"{site}/en/account/signin/")
    options = page.evaluate(POST_JSON, ["/en/account/signin/passkey/options/", {}])["body"]
    page.goto(f"{elsewhere}/")
    page.add_script_tag(path=VENDORED_WEBAUTHN)  # the site's own copy of the library
    relayed = page.evaluate(
        "o => SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: o })", options
    )
    client_data = json.loads(base64.urlsafe_b64decode(relayed["response"]["clientDataJSON"] + "=="))
    assert client_data["origin"] == elsewhere  # Chromium signed it, for that origin
    page.goto(f"{site}/en/account/signin/")
    answer = page.evaluate(
        POST_JSON, ["/en/account/signin/passkey/verify/", {"credential": relayed}]
    )
    assert answer["status"] == 403, answer
    # (2) A sign counter going backwards (a cloned authenticator): the same credential put
    # back with its counter at 0, so its next assertion counts 1, not above the server's.
    held = {"authenticatorId": authenticator}
    (stored,) = cdp.send("WebAuthn.getCredentials", held)["credentials"]
    cdp.send("WebAuthn.removeCredential", {**held, "credentialId": stored["credentialId"]})
    cdp.send("WebAuthn.addCredential", {**held, "credential": {**stored, "signCount": 0}})
    page.focus("[data-passkey-signin]")
    with page.expect_response(re.compile(r"/signin/passkey/verify/")) as refused:
        page.keyboard.press("Enter")
    assert refused.value.status == 403
    page.wait_for_function("document.querySelector('[data-passkey-status]').textContent")
    assert "could not be verified" in page.inner_text("[data-passkey-status]")
    page.goto(f"{site}/en/account/")
    assert "/account/signin/" in page.url  # neither signed anyone in
    # The same credential with its counter ahead again signs in: it was the counter.
    cdp.send("WebAuthn.removeCredential", {**held, "credentialId": stored["credentialId"]})
    cdp.send("WebAuthn.addCredential", {**held, "credential": {**stored, "signCount": 100}})
    page.goto(f"{site}/en/account/signin/")
    page.focus("[data-passkey-signin]")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/en/account/$"))
    assert errors == []
