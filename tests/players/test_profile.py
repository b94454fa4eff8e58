"""The profile page from real finished matches (the match layer's Seat.user): games played,
the last records linked by record id, places, karuta take times by card, the ratings section;
and what deletion does to them: seats keep their colour, ratings go."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches import services as matches
from matches.models import Seat
from matches.services import SeatSpec, create_match_for
from players import accounts
from ratings.models import Rating, RatingChange
from tests.records.play import Clock, play_match

pytestmark = pytest.mark.django_db
KARUTA = {"mode": "competitive", "memorise_seconds": 0, "pace": "fast", "poem_set": 1}


@pytest.fixture
def two_games(monkeypatch, django_capture_on_commit_callbacks):
    aoi = accounts.create_account("aoi", "plum-blossom-417")
    ren = accounts.create_account("ren", "plum-blossom-417")
    seats = [SeatSpec(aoi.pk), SeatSpec(ren.pk)]
    with django_capture_on_commit_callbacks(execute=True):
        karuta, _ = create_match_for("karuta", KARUTA, "friend", seats, rated=True)
        play_match(karuta.id, [0, 1], Clock(monkeypatch), seed=3)
        monkeypatch.undo()
        bozu, _ = create_match_for("bozu", {"players": 2}, "friend", seats, rated=True)
        matches.resign(bozu.id, [1])  # ren resigns: aoi first, ren forfeited
    return aoi, ren, karuta, bozu


def test_the_profile_shows_games_records_take_times_and_ratings(two_games):
    aoi, _ren, karuta, bozu = two_games
    page = Client().get("/en/@/aoi/")
    assert page.status_code == 200
    html = page.content.decode()
    assert re.search(r"<li>[^<:]+: 1 game</li>", html)
    recent = re.findall(r'href="(/en/records/[^"]+/|/records/[^"]+/)"', html)
    assert len(recent) == 2
    assert str(karuta.id) not in html and str(bozu.id) not in html  # never the room's id
    assert "1 of 2" in html
    ren_page = Client().get("/en/@/REN/", follow=True)
    assert ren_page.redirect_chain[0][0].endswith("/@/ren/")
    assert "(forfeited)" in ren_page.content.decode()
    # Take times: one row per card read in the karuta game, each with its kimariji.
    takes = re.search(r"<table class=\"profile-takes\">(.*?)</table>", html, re.S).group(1)
    rows = re.findall(r"<tr><td>(\d+)</td><td lang=\"ja\">([^<]+)</td>", takes)
    assert 1 <= len(rows) <= 20 and all(kana for _poem, kana in rows)
    # The ratings section from ratings.services.profile_section: Bozu's (a 20-poem karuta
    # game is not rated).
    assert list(Rating.objects.filter(user=aoi).values_list("key", flat=True)) == ["bozu"]
    assert "<svg" in html


def test_deleting_the_account_keeps_the_seats_colour_and_drops_ratings(two_games):
    aoi, ren, karuta, _bozu = two_games
    client = Client()
    client.force_login(aoi)
    assert RatingChange.objects.filter(user=aoi).count() == 1
    record_path = re.findall(r'href="(/records/[^"]+/)"', Client().get("/@/ren/").content.decode())
    assert client.post("/account/delete/", {"confirm": "aoi"}).status_code == 302
    assert not Rating.objects.filter(user_id=aoi.pk).exists()
    assert not RatingChange.objects.filter(user_id=aoi.pk).exists()
    assert Seat.objects.filter(match=karuta, user=None).count() == 1
    assert Rating.objects.filter(user=ren).count() == 1  # the other player's stay
    assert record_path
    record = Client().get(record_path[0]).content.decode()
    assert "ren" in record and "aoi" not in record


def test_the_profiles_places_are_the_match_layers(two_games, django_capture_on_commit_callbacks):
    """played.places_of computes in three queries what matches.outcome.outcome_of gives per
    match: the same places and forfeits, for every listed game."""
    from matches.outcome import outcome_of
    from players import played

    aoi, ren, *_ = two_games
    seats = [SeatSpec(aoi.pk), SeatSpec(ren.pk), SeatSpec(cpu_level="calm")]
    with django_capture_on_commit_callbacks(execute=True):
        three, _ = create_match_for("bakudan", {"players": 3}, "cpu", seats)
        matches.resign(three.id, [0])  # out at once; then ren: the CPU is left alone
        matches.resign(three.id, [1])
    ids = [seat.match_id for seat in Seat.objects.filter(user=aoi)]
    assert len(ids) == 3
    for match_id, seats in played.places_of(ids).items():
        outcome = outcome_of(match_id)
        assert seats == {s.index: (s.place, len(outcome.seats), s.forfeited) for s in outcome.seats}


def test_the_export_holds_every_game_and_rating(two_games):
    aoi, _ren, karuta, bozu = two_games
    client = Client()
    client.force_login(aoi)
    data = json.loads(client.post("/account/export/").content)
    games = {g["game"]: g for g in data["games"]}
    assert set(games) == {"karuta", "bozu"} and len(data["games"]) == 2
    assert games["bozu"]["place"] == 1 and not games["bozu"]["forfeited"]
    assert games["karuta"]["colour"] == "red" and games["karuta"]["record"]
    games_text = json.dumps(data["games"])  # records by record id, not the room's match id
    assert str(karuta.id) not in games_text and str(bozu.id) not in games_text
    assert [r["key"] for r in data["ratings"]["ratings"]] == ["bozu"]
