"""The web hardening people expect (issue 15, item 9) and /healthz."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/en/credits/", "/bozu/", "/kimariji/", "/privacy/"])
def test_pages_send_a_content_security_policy_and_permissions_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    csp = dict(
        (part.split()[0], part.split()[1:])
        for part in response["Content-Security-Policy"].split(";")
        if part.strip()
    )
    assert csp["script-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    policy = response["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy


@pytest.mark.parametrize("path", ["/", "/en/credits/", "/bozu/", "/karuta/", "/kimariji/"])
def test_pages_have_no_inline_script_or_style_attribute(client, path):
    """What lets script-src 'self' hold: every <script> is src= or a JSON data block."""
    html = client.get(path).content.decode()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or re.search(r'type="application/(ld\+)?json"', tag), tag
    assert not re.search(r"<[^>]+\sstyle=", html)
    assert not re.search(r"<[^>]+\son[a-z]+=", html)  # no onclick= handlers


def _admin(password="right-password-123"):
    return get_user_model().objects.create_superuser("boss", "boss@example.org", password)


def test_admin_login_locks_the_username_after_repeated_failures(client, settings):
    from axes.models import AccessAttempt

    settings.AXES_ENABLED = True  # off in the test settings (client.login passes no request)
    _admin()
    for _ in range(30):
        client.post("/admin/login/", {"username": "boss", "password": "wrong"})
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "boss", "password": "right-password-123"}
    )
    assert response.status_code == 429
    assert client.get("/admin/").status_code == 302  # still not logged in
    # Keyed and stored by username only: no address anywhere (docs/requirements.md §6).
    attempts = list(AccessAttempt.objects.values("username", "ip_address"))
    assert attempts == [{"username": "boss", "ip_address": None}]


def test_a_few_mistakes_then_the_right_password_logs_in(client, settings):
    settings.AXES_ENABLED = True
    _admin()
    for _ in range(3):
        client.post("/admin/login/", {"username": "boss", "password": "wrong"})
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "boss", "password": "right-password-123"}
    )
    assert response.status_code == 302 and response["Location"] == "/admin/"


def test_the_staff_dashboard_style_block_carries_the_nonce(admin_client):
    response = admin_client.get("/staff/telemetry/")
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    assert f'<style nonce="{nonce}">' in response.content.decode()


def test_robots_txt_and_favicon(client):
    robots = client.get("/robots.txt")
    assert robots.status_code == 200 and robots["Content-Type"].startswith("text/plain")
    assert "Disallow: /admin/" in robots.content.decode()
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("/img/favicon.svg")
    assert client.get(icon["Location"]).status_code == 200


@pytest.fixture(autouse=True)
def fresh_health():
    """Each test asks the checks anew (/healthz answers from a short cache)."""
    from pages import health

    health.forget()
    yield
    health.forget()


def test_healthz_answers_from_a_short_cache_while_a_part_is_down(client, monkeypatch):
    """A failing check can take its whole timeout (2 s a call with Redis down, 6 s for 20 at
    once): callers within CACHE_S of an answer get it again without asking (issue 43)."""
    from pages import health

    now = [1000.0]
    monkeypatch.setattr(health, "clock", lambda: now[0])
    calls = []

    def down():
        calls.append(now[0])
        raise ConnectionError("Redis is down")

    monkeypatch.setitem(health.CHECKS, "broker", down)
    for _ in range(5):
        assert client.get("/healthz").status_code == 503
    assert len(calls) == 1
    now[0] += health.CACHE_S + 0.01  # the answer is old: the checks run again
    monkeypatch.setitem(health.CHECKS, "broker", lambda: None)
    assert client.get("/healthz").status_code == 200
    assert len(calls) == 1 and client.get("/healthz").json()["status"] == "ok"


def test_healthz_reports_each_part_and_nothing_more(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok", "broker": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


def test_healthz_says_503_when_a_part_fails_without_saying_why(client, monkeypatch, caplog):
    from pages import health

    def down():
        raise ConnectionError("connect to 10.1.2.3:6379 refused")

    monkeypatch.setitem(health.CHECKS, "broker", down)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "failed"
    assert "10.1.2.3" not in response.content.decode()
