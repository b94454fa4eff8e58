"""Karuta with friends (issue 18): the menu's friend rooms, competitive 1 v 1 and chirashi
for 2–4 people, through the same match layer as the other games' friend rooms."""

from __future__ import annotations

import pytest
from django.test import Client

import gamekit
from gamekit import Mode
from matches import services
from matches.models import Match
from tests.games.karuta.test_play_page import MENU

pytestmark = pytest.mark.django_db


def test_karuta_offers_friend_rooms():
    assert Mode.FRIEND in gamekit.registry.get("karuta").modes


@pytest.mark.parametrize(
    ("form", "seats"),
    [
        ({"mode": "competitive"}, 2),
        ({"mode": "chirashi", "players": "2"}, 2),
        ({"mode": "chirashi", "players": "4", "otetsuki_penalty": "return_card"}, 4),
    ],
)
def test_the_menu_makes_a_friend_room_every_seat_for_a_person(form, seats):
    client = Client()
    response = client.post("/play/new/karuta/", {**MENU, **form, "play_mode": "friend"},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    assert response.status_code == 200, response.content
    created = response.json()
    match = Match.objects.get(pk=created["match"])
    assert match.mode == "friend" and match.status == "waiting" and created["invite"]
    assert [s.kind for s in match.seats.order_by("index")] == ["human"] * seats
    # Friends join by the invitation; the room starts once every seat is taken.
    for _ in range(seats - 1):
        services.join(match.invite_code)
    match.refresh_from_db()
    assert match.status == "playing" and match.turns["at"] > 0  # a timed game's clock


def test_solo_practice_is_not_a_friend_room():
    client = Client()
    response = client.post("/play/new/karuta/", {**MENU, "mode": "solo", "play_mode": "friend"},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_memorising_in_a_friend_game_waits_for_every_seat():
    match, _token = services.create_match(
        "karuta", {"mode": "chirashi", "players": 3, "memorise_seconds": 60}, "friend"
    )
    services.join(match.invite_code)
    services.join(match.invite_code)
    for seat in (0, 1):
        services.submit_action(match.id, [seat], {"type": "ready"})
        state = Match.objects.get(pk=match.id).state
        assert state["phase"] == "memorise"
    services.submit_action(match.id, [2], {"type": "ready"})
    assert Match.objects.get(pk=match.id).state["phase"] == "reading"
