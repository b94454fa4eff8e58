"""Accounts without a passkey: password sign-up and sign-in (with django-axes' lockout per
username), recovery codes, one-time codes for a second device, the session list and "sign
out everywhere", cookies, CSRF on every POST, and the in-memory rate limits."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone

from players import accounts, ratelimit
from players import urls as player_urls
from players.models import DeviceSession, RecoveryCode, SignInCode

pytestmark = pytest.mark.django_db
PASSWORD = "plum-blossom-417"


def sign_up(client, handle="hanako", password=PASSWORD):
    response = client.post("/account/signup/password/", {"handle": handle, "password": password})
    assert response.status_code == 302 and response["Location"] == "/account/welcome/"
    page = client.get("/account/welcome/").content.decode()
    return re.findall(r"<code>([A-Z0-9-]+)</code>", page)


def test_password_sign_up_rotates_the_session_and_sets_safe_cookies(client):
    client.get("/account/signin/")
    client.session.save()
    before = client.session.session_key
    codes = sign_up(client)
    assert len(codes) == 10 and len(set(codes)) == 10
    cookie = client.cookies["sessionid"]
    assert cookie.value != before  # a new session key at sign-in: no fixation
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    # Only digests of the codes are kept.
    kept = set(RecoveryCode.objects.values_list("digest", flat=True))
    assert not kept & set(codes) and {accounts.digest(c) for c in codes} == kept


def test_secure_cookies_in_production_settings():
    from config import settings as production

    assert production.SESSION_COOKIE_HTTPONLY and production.SESSION_COOKIE_SAMESITE == "Lax"
    assert production.SESSION_COOKIE_SECURE == production.HTTPS


def test_a_weak_password_and_a_bad_handle_are_refused_with_messages(client):
    weak = client.post("/en/account/signup/password/", {"handle": "hanako", "password": "123"})
    assert weak.status_code == 400 and b"too short" in weak.content
    bad = client.post("/en/account/signup/password/", {"handle": "red", "password": PASSWORD})
    assert bad.status_code == 400 and "“red” is reserved" in bad.content.decode()


def test_password_sign_in_any_width_or_case(client):
    sign_up(client)
    client.post("/account/signout/")
    wrong = client.post("/account/signin/password/", {"username": "hanako", "password": "x"})
    assert wrong.status_code == 400 and client.get("/account/").status_code == 302
    ok = client.post(
        "/account/signin/password/", {"username": "ＨＡＮＡＫＯ", "password": PASSWORD}
    )
    assert ok.status_code == 302 and client.get("/account/").status_code == 200


def test_password_sign_in_locks_after_the_configured_failures(client, settings):
    from axes.models import AccessAttempt

    settings.AXES_ENABLED = True
    sign_up(client)
    client.post("/account/signout/")
    for typed in ["hanako", "HANAKO", "ｈａｎａｋｏ", "Hanako", "hanako"][
        : settings.AXES_FAILURE_LIMIT
    ]:
        client.post("/account/signin/password/", {"username": typed, "password": "wrong"})
    locked = client.post(
        "/en/account/signin/password/", {"username": "hanako", "password": PASSWORD}
    )
    assert locked.status_code == 429
    assert "this handle is locked for a while" in locked.content.decode()
    assert client.get("/account/").status_code == 302
    # One username for every spelling, and no address kept.
    assert list(AccessAttempt.objects.values("username", "ip_address")) == [
        {"username": "hanako", "ip_address": None}
    ]


def test_a_recovery_code_signs_in_once(client):
    codes = sign_up(client)
    client.post("/account/signout/")
    typed = codes[0].lower().replace("-", " ")  # as a person might type it
    ok = client.post("/account/signin/recovery/", {"handle": "Hanako", "code": typed})
    assert ok.status_code == 302 and client.get("/account/").status_code == 200
    client.post("/account/signout/")
    again = client.post("/account/signin/recovery/", {"handle": "hanako", "code": codes[0]})
    assert again.status_code == 400
    other = Client()
    sign_up(other, "taro")
    wrong_user = client.post("/account/signin/recovery/", {"handle": "taro", "code": codes[1]})
    assert wrong_user.status_code == 400


def test_a_one_time_code_lets_a_second_device_in_once(client, monkeypatch):
    sign_up(client)
    page = client.post("/account/code/").content.decode()
    code = re.search(r"data-signin-code>([A-Z0-9-]+)<", page).group(1)
    link = re.search(r"data-signin-link>(http[^<]+)<", page).group(1)
    second, third = Client(), Client()
    assert second.post("/account/signin/code/", {"code": code.lower()}).status_code == 302
    assert second.get("/account/").status_code == 200
    assert third.post("/account/signin/code/", {"code": code}).status_code == 400  # once
    # A new code replaces the old; the link works once and a GET does not spend it.
    page = client.post("/account/code/").content.decode()
    link = (
        re.search(r"data-signin-link>(http[^<]+)<", page).group(1).replace("http://testserver", "")
    )
    assert third.get(link).status_code == 200 and third.get("/account/").status_code == 302
    assert third.post(link).status_code == 302 and third.get("/account/").status_code == 200
    assert Client().post(link).status_code == 400
    # Expiry: a code made now no longer works once its minutes have passed.
    page = client.post("/account/code/").content.decode()
    code = re.search(r"data-signin-code>([A-Z0-9-]+)<", page).group(1)
    later = timezone.now() + accounts.code_lifetime() + timedelta(seconds=1)
    monkeypatch.setattr(accounts.timezone, "now", lambda: later)
    assert Client().post("/account/signin/code/", {"code": code}).status_code == 400
    assert SignInCode.objects.filter(used_at=None).count() == 1


def test_sessions_are_listed_and_signed_out_everywhere(client):
    sign_up(client)
    other = Client(HTTP_USER_AGENT="Mozilla/5.0 (Windows NT 10.0) Firefox/120.0")
    assert (
        other.post(
            "/account/signin/password/", {"username": "hanako", "password": PASSWORD}
        ).status_code
        == 302
    )
    page = client.get("/en/account/").content.decode()
    assert "Firefox · Windows" in page and "(this device)" in page
    keys = list(DeviceSession.objects.values_list("session_key", flat=True))
    assert len(keys) == 2 and Session.objects.filter(session_key__in=keys).count() == 2
    assert client.post("/account/signout/everywhere/").status_code == 302
    assert client.get("/account/").status_code == 302
    assert other.get("/account/").status_code == 302  # the other device is out too
    assert DeviceSession.objects.count() == 0
    assert not Session.objects.filter(session_key__in=keys).exists()


def _post_urls():
    args = {"passkey_id": 1, "token": "x" * 32}
    for pattern in player_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        names = pattern.pattern.converters.keys()
        yield reverse(f"players:{pattern.name}", kwargs={k: args[k] for k in names})


def test_every_account_post_needs_the_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    sign_up(Client(), "hanako")
    assert (
        strict.post(
            "/account/signin/password/", {"username": "hanako", "password": PASSWORD}
        ).status_code
        == 403
    )
    urls = list(_post_urls())
    assert len(urls) == len(player_urls.urlpatterns) >= 20
    # Signed in (through the non-strict path), then every POST without the token.
    strict.force_login(accounts.user_for_handle("hanako"))
    for url in urls:
        assert strict.post(url, {}).status_code == 403, url
    assert strict.get("/account/").status_code == 200  # still signed in: nothing happened


def test_the_account_endpoints_are_rate_limited_per_address(client, settings):
    settings.PLAYERS_RATE_LIMITS = {"signin": (3, 60), "code": (2, 60)}
    codes = [
        client.post("/account/signin/password/", {"username": "a", "password": "b"}).status_code
        for _ in range(4)
    ]
    assert codes == [400, 400, 400, 429]
    neighbour = Client(REMOTE_ADDR="10.9.8.7")
    assert (
        neighbour.post("/account/signin/password/", {"username": "a", "password": "b"}).status_code
        == 400
    )
    guesses = [
        client.post("/account/signin/code/", {"code": "AAAA-BBBB"}).status_code for _ in range(3)
    ]
    assert guesses == [400, 400, 429]
    # Reads a script could repeat: link tokens (a GET only looks) and profile pages.
    settings.PLAYERS_RATE_LIMITS = {"code": (2, 60), "profile": (3, 60)}
    ratelimit.reset()
    peeks = [client.get("/account/signin/link/" + "x" * 32 + "/").status_code for _ in range(3)]
    assert peeks == [404, 404, 429]
    sign_up(Client(), "hanako")
    pages = [client.get("/@/hanako/").status_code for _ in range(4)]
    assert pages == [200, 200, 200, 429]


def test_the_one_time_link_is_also_a_qr_code(client):
    import segno

    sign_up(client)
    page = client.post("/en/account/code/").content.decode()
    link = re.search(r"data-signin-link>(http[^<]+)<", page).group(1)
    svg = re.search(r"<figure class=\"signin-qr\" data-signin-qr>(<svg.*?</svg>)", page, re.S)
    assert svg and 'role="img"' in svg.group(1) and "QR code of the sign-in link" in svg.group(1)
    # The drawn modules are those of this link's code, not another's.
    drawn = re.search(r' d="([^"]+)"', svg.group(1)).group(1)
    assert drawn == re.search(r' d="([^"]+)"', segno.make(link, error="m").svg_inline()).group(1)
