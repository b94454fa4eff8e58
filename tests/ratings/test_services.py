"""ratings.services as the lobby, events and profiles use it, and the leaderboard pages."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from ratings import figures, services
from ratings.models import AppliedMatch, Rating, RatingChange

pytestmark = pytest.mark.django_db
KEY = "karuta-competitive"


def make_user(name):
    return get_user_model().objects.create(username=name)


def rate(user, rating, deviation=60.0, days_ago=1.0, key=KEY, games=40):
    row = Rating(
        user=user, key=key, rating=rating, deviation=deviation, games=games,
        volatility=0.09 if key == KEY else 0.0,
        last_played=timezone.now() - timedelta(days=days_ago),
    )  # fmt: skip
    row.settle()  # as ratings.apply does
    row.save()
    return row


def test_a_player_without_a_rated_game_gets_the_starting_rating(django_assert_num_queries):
    user = make_user("aoi")
    view = services.current(user.pk, KEY)
    assert view == services.RatingView(KEY, 1500.0, 500.0, True, 0)
    rate(user, 1800.0, deviation=100.0, days_ago=0.0)
    other = make_user("ren")
    with django_assert_num_queries(1):
        many = services.current_many([user.pk, other.pk], KEY)
    assert many[user.pk] == services.RatingView(KEY, 1800.0, pytest.approx(100.0), False, 40)
    assert many[other.pk].rating == 1500.0 and many[other.pk].provisional
    assert services.current(user.pk, "bozu").games == 0
    with pytest.raises(ValueError):
        services.current(user.pk, "chess")
    assert services.rating_key("karuta", "friend", {"mode": "competitive"}) == KEY
    levels = services.cpu_ratings()
    assert list(levels) == ["nyumon", "yowai", "futsu", "tsuyoi", "meijin"]
    assert list(levels.values()) == sorted(levels.values())  # stronger levels rate higher


def test_the_leaderboard_shows_settled_active_players_best_first_and_the_viewers_place():
    best = make_user("best")
    rate(best, 2100.0)
    unsure = make_user("unsure")
    rate(unsure, 2500.0, deviation=75.1)  # not settled: off the board
    idle = make_user("idle")
    rate(idle, 2400.0, days_ago=30.5)  # not played in 30 days: off the board
    edge = make_user("edge")
    rate(edge, 1900.0, deviation=60.0, days_ago=29.5)  # grown to 71.7 since: still on
    faded = make_user("faded")
    rate(faded, 2300.0, deviation=72.0, days_ago=20)  # grown to 78.9 while idle: off
    other_key = make_user("bozu")
    rate(other_key, 2600.0, key="bozu")
    many = [make_user(f"p{i:03d}") for i in range(105)]
    for i, user in enumerate(many):
        rate(user, 1800.0 - i)
    board = services.leaderboard(KEY, viewer_id=many[-1].pk)
    handles = [row.handle for row in board.rows]
    assert len(board.rows) == 100
    assert handles[:3] == ["best", "edge", "p000"]
    assert not {"unsure", "idle", "bozu", "faded"} & set(handles)
    assert board.rows[1].deviation == pytest.approx(71.7, abs=0.1)  # shown as grown
    assert [row.place for row in board.rows] == list(range(1, 101))
    assert board.viewer.place == 107 and board.viewer.handle == "p104"
    off = services.leaderboard(KEY, viewer_id=unsure.pk)
    assert off.viewer is None and off.viewer_rating.rating == 2500.0
    assert services.leaderboard(KEY).viewer is None
    gone = services.leaderboard(KEY, viewer_id=faded.pk)
    assert gone.viewer is None and gone.viewer_rating.deviation == pytest.approx(78.9, abs=0.1)


def test_an_idle_players_deviation_grows_and_counts_in_their_next_game():
    """Glicko: an idle player's deviation grows with the rating periods that pass (lichess's
    0.21436 a day: 60 becomes 150 in a year at volatility 0.09); it is shown grown and the
    next game starts from it, so that game moves the rating further."""
    from matches.outcome import MatchOutcome, SeatOutcome
    from ratings import apply

    def game(a, b, when):
        seats = tuple(
            SeatOutcome(index=i, user_id=u.pk, is_cpu=False, place=i + 1, score=None,
                        forfeited=False)
            for i, u in enumerate((a, b))
        )  # fmt: skip
        return MatchOutcome(uuid.uuid4(), "karuta", "friend", {"mode": "competitive"}, True,
                            when, seats)  # fmt: skip

    fresh, away, opponent = make_user("fresh"), make_user("away"), make_user("opp")
    rate(fresh, 1500.0, deviation=60.0, days_ago=0.0)
    rate(away, 1500.0, deviation=60.0, days_ago=365.0)
    rate(opponent, 1500.0, deviation=60.0, days_ago=0.0)
    shown = services.current_many([fresh.pk, away.pk], KEY)
    assert shown[fresh.pk].deviation == pytest.approx(60.0, abs=0.01)
    assert shown[away.pk].deviation == pytest.approx(150.7, abs=0.1)
    assert shown[away.pk].provisional and not shown[fresh.pk].provisional
    assert "150" in services.profile_section(away)  # the profile shows it grown too
    now = timezone.now()
    apply.apply(game(fresh, opponent, now))
    apply.apply(game(away, opponent, now))
    gained = {u: Rating.objects.get(user=u, key=KEY).rating - 1500 for u in (fresh, away)}
    assert gained[away] > 2 * gained[fresh] > 0
    row = Rating.objects.get(user=away, key=KEY)
    assert row.deviation < 150 and row.board_until is None  # not settled again yet


def test_leaderboard_pages_in_three_languages(client):
    user = make_user("aoi")
    rate(user, 2000.0)
    client.force_login(user)
    ja = client.get("/ratings/karuta-competitive/")
    en = client.get("/en/ratings/karuta-competitive/")
    zh = client.get("/zh-hans/ratings/karuta-competitive/")
    for page in (ja, en, zh):
        assert page.status_code == 200
        assert b"aoi" in page.content and b"2000" in page.content
    assert "Your place: 1" in en.content.decode()
    assert "あなたの順位" in ja.content.decode()
    assert "你的名次" in zh.content.decode()
    assert client.get("/ratings/chess/").status_code == 404
    # Each row links to the player's profile, quoted as reverse() quotes it.
    kana = make_user("かるた_名人")
    rate(kana, 1900.0)
    page = client.get("/en/ratings/karuta-competitive/").content.decode()
    assert f'href="{reverse("profile", args=["かるた_名人"])}"' in page
    assert f'href="{reverse("profile", args=["aoi"])}"' in page
    assert client.get("/en/ratings/").status_code == 200


def test_bozus_page_states_the_measured_spread_from_the_bench():
    measured = figures.bozu()
    page = services_page("/en/ratings/bozu/")
    assert "game of chance" in page
    assert f"from {measured['p10']} to {measured['p90']}" in page
    assert f"{measured['players']} simulated players" in page


def services_page(path):
    from django.test import Client

    return Client().get(path).content.decode()


def test_profile_section_draws_each_ratings_history():
    user = make_user("aoi")
    rate(user, 1620.0, deviation=130.0, games=3)
    now = timezone.now()
    for i, value in enumerate((1700.0, 1580.0, 1620.0)):
        RatingChange.objects.create(
            user=user, key=KEY, match_id=uuid.uuid4(), played_at=now - timedelta(hours=3 - i),
            rating_before=1500.0, rating=value, deviation=130.0, place=1, seats=2,
        )  # fmt: skip
    html = services.profile_section(user)
    assert "<svg" in html and "<polyline" in html
    assert "1620?" in html  # provisional
    assert "1580" in html and "1700" in html  # the chart's low and high
    assert "<svg" not in services.profile_section(make_user("new"))


def test_forget_and_export():
    user, other = make_user("aoi"), make_user("ren")
    rate(user, 1700.0)
    rate(other, 1600.0)
    match_id = uuid.uuid4()
    RatingChange.objects.create(
        user=user, key=KEY, match_id=match_id, played_at=timezone.now(),
        rating_before=1500.0, rating=1700.0, deviation=60.0, place=1, seats=2,
    )  # fmt: skip
    AppliedMatch.objects.create(match_id=match_id, key=KEY)
    data = services.export(user.pk)
    assert data["ratings"][0]["rating"] == 1700.0 and data["ratings"][0]["key"] == KEY
    # The match id is the room's address, kept only to apply a match once: not exported.
    assert "match" not in data["history"][0] and str(match_id) not in str(data)
    assert services.forget(user.pk) == {"ratings.Rating": 1, "ratings.RatingChange": 1}
    assert not Rating.objects.filter(user=user).exists()
    assert not RatingChange.objects.filter(user=user).exists()
    assert Rating.objects.filter(user=other).exists()
    # The marker names no one and stays: the match is still applied once.
    assert AppliedMatch.objects.filter(match_id=match_id).exists()
    assert services.export(user.pk) == {"ratings": [], "history": []}
