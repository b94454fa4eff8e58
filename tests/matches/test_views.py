"""HTTP: creating a match from a game's menu, invitations, the play page, play again."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches import services
from matches.models import Match, Seat

pytestmark = pytest.mark.django_db


def page_config(html: str) -> dict:
    return json.loads(re.search(r'id="match-config"[^>]*>(.*?)</script>', html, re.S).group(1))


def test_create_needs_csrf():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/play/new/hiddenhand/", {"players": 2, "play_mode": "cpu"})
    assert response.status_code == 403
    assert not Match.objects.exists()


def test_create_validates_the_game_settings_form_mode_and_level():
    client = Client()
    bad = [
        {"players": 9, "turns": 5, "play_mode": "cpu"},
        {"players": 2, "turns": 5, "play_mode": "solo"},  # not one of this game's modes
        {"players": 2, "turns": 5, "play_mode": "cpu", "cpu_level": "grandmaster"},
        {"players": "two", "turns": 5, "play_mode": "cpu"},
        {"players": 2, "turns": 5},
    ]
    for data in bad:
        response = client.post("/play/new/hiddenhand/", data, HTTP_ACCEPT="application/json")
        assert response.status_code == 400, data
        body = response.json()
        assert body["code"] == "bad_message" and body["message"] and body["errors"]
    assert client.post("/play/new/nosuchgame/", {"play_mode": "cpu"}).status_code == 404
    assert client.get("/play/new/hiddenhand/").status_code == 405
    assert not Match.objects.exists()


def test_the_language_carried_to_the_play_page_is_the_settings_cookie(settings):
    """Issue 25: the cookie /play/new/ sets is Django's language cookie, HttpOnly and all."""
    settings.LANGUAGE_COOKIE_SECURE = True  # as in production (HTTPS on)
    data = {"players": 2, "turns": 5, "play_mode": "cpu", "language": "en"}
    response = Client().post("/play/new/hiddenhand/", data)
    cookie = response.cookies["django_language"]
    assert cookie.value == "en"
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    assert cookie["path"] == "/" and int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE


def test_create_sets_a_scoped_httponly_cookie_and_redirects_to_the_play_page():
    client = Client()
    response = client.post(
        "/play/new/hiddenhand/", {"players": 3, "turns": 5, "play_mode": "cpu", "cpu_level": "hard"}
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == f"/play/{match.id}/"
    cookie = response.cookies["seat_token"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["path"] == f"/play/{match.id}/"
    assert services.token_seats(match.id, cookie.value) == [0]
    assert [s.cpu_level for s in match.seats.filter(kind="cpu")] == ["hard", "hard"]
    assert match.settings == {"players": 3, "turns": 5}
    page = client.get(response["Location"])
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    html = page.content.decode()
    config = page_config(html)
    assert config == {
        "match": str(match.id),
        "game": "hiddenhand",
        "mode": "cpu",
        "ws": f"/play/{match.id}/ws/",
        "seats": [0],
        "protocol": 1,
        "rematch": f"/play/{match.id}/again/",
        "telemetry_settings": {"players": "3"},
        "groups": [],
    }
    assert cookie.value not in html and str(match.seed) not in html


def test_friend_room_invitation_join_and_watch():
    owner = Client()
    created = owner.post(
        "/play/new/hiddenhand/",
        {"players": 2, "turns": 4, "play_mode": "friend"},
        HTTP_ACCEPT="application/json",
    ).json()
    assert created["seat"] == 0 and len(created["token"]) >= 43
    match = Match.objects.get(pk=created["match"])
    assert created["invite"] == f"/play/invite/{match.invite_code}/"
    page = owner.get(created["url"]).content.decode()
    assert f"/play/invite/{match.invite_code}/" in page  # the creator sees the invitation URL

    guest = Client()
    assert guest.get(created["invite"]).status_code == 200
    joined = guest.post(created["invite"])
    assert joined.status_code == 302 and joined["Location"] == created["url"]
    assert services.token_seats(match.id, joined.cookies["seat_token"].value) == [1]
    match.refresh_from_db()
    assert match.status == "playing"

    late = Client()
    assert late.post(created["invite"]).status_code == 302  # full: sent to watch instead
    assert late.post(created["invite"], HTTP_ACCEPT="application/json").status_code == 409
    watch = late.get(created["url"]).content.decode()
    assert page_config(watch)["seats"] == [] and match.invite_code not in watch
    assert late.get("/play/invite/nope/").status_code == 404
    assert late.get("/play/00000000-0000-4000-8000-000000000000/").status_code == 404


def test_play_again_over_http_is_idempotent():
    owner = Client()
    created = owner.post(
        "/play/new/hiddenhand/",
        {"players": 2, "turns": 1, "play_mode": "cpu"},
        HTTP_ACCEPT="application/json",
    ).json()
    match_id = created["match"]
    assert owner.post(f"/play/{match_id}/again/").status_code == 409  # not over yet
    services.submit_action(match_id, [0], {"type": "draw"})
    first = owner.post(f"/play/{match_id}/again/")
    second = owner.post(f"/play/{match_id}/again/")
    spectator = Client().post(f"/play/{match_id}/again/")
    nxt = Match.objects.get(pk=match_id).next_match
    assert first["Location"] == second["Location"] == spectator["Location"] == f"/play/{nxt.id}/"
    assert services.token_seats(nxt.id, first.cookies["seat_token"].value) == [0]
    assert "seat_token" not in spectator.cookies
    assert nxt.status == "playing" and Seat.objects.filter(match=nxt).count() == 2
    assert Match.objects.count() == 2


def test_the_browser_client_module_is_served():
    response = Client().get("/static/js/match-client.js")
    body = b"".join(response.streaming_content).decode() if response.streaming else ""
    assert response.status_code == 200
    assert "export class MatchClient" in body and "action_id" in body


def test_the_play_page_speaks_ja_en_and_zh_hans():
    match, _token = services.create_match("hiddenhand", {"players": 2, "turns": 3}, "cpu")
    client = Client()
    expected = {
        "ja": "この対局を観戦しています。",
        "en": "You are watching this match.",
        "zh-hans": "你正在观战此对局。",
    }
    for language, text in expected.items():
        client.cookies["django_language"] = language
        assert text in client.get(f"/play/{match.id}/").content.decode(), language


def test_http_views_import_no_socket_code():
    """The HTTP views (and everything they import from the platform) never pull in the
    socket, its driver or group commit: read from the source, transitively."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "platform"

    def imports(module: str) -> set[str]:
        path = root.joinpath(*module.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        if not path.exists():
            return set()  # not the platform's own (Django, the standard library)
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        return found

    seen: set[str] = set()
    todo = ["matches.views", "records.views"]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(imports(module) - seen)
    socket_side = {"matches.consumers", "matches.driver", "matches.groupcommit",
                   "channels.generic.websocket"}  # fmt: skip
    assert "matches.services" in seen and not socket_side & seen
