"""Genpei rooms (games/karuta, docs/matches.md "Seat groups"): a CPU level per seat from the
menu, and a friend room where each person joining chooses a team."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches import services
from matches.errors import MatchError
from matches.models import Match, Seat

pytestmark = pytest.mark.django_db

GENPEI = {"mode": "genpei", "teams": [2, 2], "memorise_seconds": 0}


def test_against_the_cpu_each_cpu_seat_gets_the_level_chosen_for_it():
    settings = {**GENPEI, "seat_levels": [None, "meijin", "nyumon", "tsuyoi"]}
    match, _token = services.create_match("karuta", settings, "cpu", "futsu")
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert [s.kind for s in seats] == ["human", "cpu", "cpu", "cpu"]
    assert [s.cpu_level for s in seats] == ["futsu", "meijin", "nyumon", "tsuyoi"]
    assert [s.colour for s in seats] == ["red", "blue", "green", "yellow"]
    match.refresh_from_db()
    assert match.status == "playing" and match.state["teams"] == [0, 0, 1, 1]


def test_eight_seats_have_eight_colours():
    match, _token = services.create_match("karuta", {**GENPEI, "teams": [4, 4]}, "cpu")
    colours = list(
        Seat.objects.filter(match=match).order_by("index").values_list("colour", flat=True)
    )
    assert len(set(colours)) == 8


def test_a_person_joining_a_friend_room_chooses_a_team():
    match, _token = services.create_match("karuta", GENPEI, "friend")
    code = match.invite_code
    assert services.join(code, group=1)[1] == 2  # the first free seat of the Heike
    assert services.join(code, group=0)[1] == 1
    with pytest.raises(MatchError, match="group_full"):
        services.join(code, group=0)
    with pytest.raises(MatchError, match="bad_message"):
        services.join(code, group=2)
    assert services.join(code, group=1)[1] == 3
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_the_invitation_shows_both_teams_and_joins_the_one_pressed():
    owner = Client()
    created = owner.post(
        "/play/new/karuta/",
        {
            "mode": "genpei",
            "team_size": "2",
            "enemy_size": "2",
            "cpu_level": "futsu",
            "pace": "standard",
            "memorise_seconds": "0",
            "play_mode": "friend",
        },
        HTTP_ACCEPT="application/json",
    ).json()
    guest = Client()
    page = guest.get(created["invite"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-group="0"' in page and 'data-group="1"' in page
    assert "Genji" in page and "Heike" in page
    joined = guest.post(created["invite"], {"group": "1"}, HTTP_ACCEPT="application/json").json()
    assert joined["seat"] == 2
    # The room lists its seats by team (the page names the teams).
    page = guest.get(created["url"]).content.decode()
    config = json.loads(re.search(r'id="match-config"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert config["groups"] == [[0, 1], [2, 3]] and config["seats"] == [2]
    bad = Client().post(created["invite"], {"group": "x"}, HTTP_ACCEPT="application/json")
    assert bad.status_code == 400


def test_the_creator_moves_seats_between_the_teams_before_the_start():
    match, _token = services.create_match("karuta", GENPEI, "friend")
    code = match.invite_code
    assert services.join(code, group=1)[1] == 2
    assert services.join(code, group=0)[1] == 1
    # The creator (seat 0) puts seat 1's friend with the Heike and seat 2's with the Genji.
    services.swap_seats(match.id, [0], 1, 2)
    match.refresh_from_db()
    assert match.settings["seat_teams"] == [0, 1, 0, 1]
    line = match.actions.order_by("-seq").first()
    assert line.kind == "room" and line.events == [{"type": "seats_swapped", "seats": [1, 2]}]
    for held, first, second, code_ in (
        ([2], 1, 3, "not_owner"),  # only the creator
        ([], 1, 3, "not_owner"),  # nor a spectator
        ([0], 0, 2, "not_allowed"),  # now the same team
        ([0], 1, 4, "bad_message"),  # no such seat
        ([0], -1, 1, "bad_message"),
        ([0], True, 1, "bad_message"),
    ):
        with pytest.raises(MatchError, match=code_):
            services.swap_seats(match.id, held, first, second)
    # An empty seat moves too; the next person joining the Heike takes seat 3.
    assert services.join(code, group=1)[1] == 3
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    # The engine plays the teams as arranged, and replays them alike.
    assert match.state["teams"] == [0, 1, 0, 1]
    assert services.replay(match)["teams"] == [0, 1, 0, 1]
    with pytest.raises(MatchError, match="not_waiting"):
        services.swap_seats(match.id, [0], 0, 1)


def test_moving_back_restores_the_plain_order_and_a_game_without_teams_refuses():
    match, _token = services.create_match("karuta", {**GENPEI, "teams": [1, 3]}, "friend")
    services.swap_seats(match.id, [0], 0, 3)  # the creator joins the Heike
    match.refresh_from_db()
    assert match.settings["seat_teams"] == [1, 1, 1, 0]
    services.swap_seats(match.id, [0], 3, 0)
    match.refresh_from_db()
    assert "seat_teams" not in match.settings
    plain, _token = services.create_match(
        "karuta", {"mode": "chirashi", "players": 3, "memorise_seconds": 0}, "friend"
    )
    with pytest.raises(MatchError, match="bad_message"):
        services.swap_seats(plain.id, [0], 0, 1)


@pytest.mark.parametrize(
    "lang, words",
    [
        ("ja", ("相手チームへ移す", "移動をやめる", "入れ替える")),
        ("zh-hans", ("移到另一队", "取消移动", "交换")),
    ],
)
def test_the_room_s_words_for_moving_seats_are_in_the_page_s_language(lang, words, settings):
    match, _token = services.create_match("karuta", GENPEI, "friend")
    browser = Client()
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = browser.get(f"/play/{match.id}/").content.decode()
    strings = json.loads(re.search(r'id="room-strings">(.*?)</script>', page, re.S).group(1))
    texts = [strings[key] for key in ("swapPick", "swapCancel", "swapTo")]
    assert all(word in text for word, text in zip(words, texts, strict=True)), texts
    assert "%(seat)s" in strings["swapPick"]  # placeholders as the page fills them (fmt)
