"""The pure rating updates (no Django): the libraries' reference values through our glue,
lichess's parameters, and who is rated and how a finished game's places count."""

import pytest
from openskill.models import PlackettLuce

from ratings import pure, rules
from ratings.pure import Rating
from ratings.rules import SeatResult


def test_glicko2_reproduces_glickmans_worked_example():
    # Glickman's "Example of the Glicko-2 system": 1500 / 200 / 0.06, tau 0.5, beats 1400/30,
    # loses to 1550/100 and 1700/300 -> 1464.06 / 151.52 / 0.05999 (his rounding).
    after = pure.glicko2_period(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_new_players_start_at_lichess_parameters_and_are_provisional():
    new = pure.start(pure.System.GLICKO2)
    assert (new.rating, new.deviation, new.volatility) == (1500, 500, 0.09)
    assert pure.TAU == 0.75 and new.provisional
    assert not Rating(1500, 109.9).provisional and Rating(1500, 110).provisional


def test_one_game_moves_both_players_symmetrically_and_keeps_deviation_in_bounds():
    a, b = pure.glicko2_game(Rating(), Rating(), 1.0)
    assert a.rating == pytest.approx(1741.62, abs=0.01)  # the library's value for this game
    assert b.rating == pytest.approx(3000 - a.rating)
    assert a.deviation == pytest.approx(396.81, abs=0.01)
    assert b.deviation == a.deviation
    # A settled player stays at the floor of 45, never below it.
    steady = Rating(2000, 50.0, 0.001)
    settled = pure.glicko2_period(steady, [(Rating(2000, 45.0), 0.5)] * 30)
    assert settled.deviation == pure.DEVIATION_MIN
    assert pure.glicko2_period(Rating(1500, 500, 5.0), [(Rating(), 1)]).deviation == 500
    # Upset after upset raises the volatility, never past lichess's cap of 0.1.
    upset = Rating(2000, 50.0, 0.099)
    for _ in range(10):
        upset, _ = pure.glicko2_game(upset, Rating(1000, 50.0), 0.0)
    assert upset.volatility == pure.VOLATILITY_MAX
    draw_a, draw_b = pure.glicko2_game(Rating(1600, 80), Rating(1400, 80), 0.5)
    assert draw_a.rating < 1600 and draw_b.rating > 1400
    with pytest.raises(ValueError):
        pure.glicko2_game(Rating(), Rating(), 2)


def test_expected_score_favours_the_higher_rating_and_is_complementary():
    p = pure.glicko2_expected(Rating(1700, 60), Rating(1500, 60))
    assert p == pytest.approx(0.7524, abs=0.0001)
    assert pure.glicko2_expected(Rating(1500, 60), Rating(1700, 60)) == pytest.approx(1 - p)


def test_weng_lin_is_openskills_plackett_luce_on_glickos_scale():
    model = PlackettLuce(mu=1500, sigma=500, beta=173.7178 / 2**0.5, tau=5)
    teams = [[(1500, 500)], [(1620, 360)], [(1320, 420)], [(1500, 180)]]
    places = [2, 1, 4, 2]
    reference = model.rate(
        [[model.rating(mu=m, sigma=s) for m, s in t] for t in teams], ranks=places
    )
    ours = pure.weng_lin_game([[Rating(m, s, 0.0) for m, s in t] for t in teams], places)
    for ref, got in zip(reference, ours, strict=True):
        assert got[0].rating == pytest.approx(ref[0].mu)
        assert got[0].deviation == pytest.approx(ref[0].sigma)
    # Three new players, places 1, 2, 3 (the library's values with these parameters).
    first, second, third = pure.weng_lin_game([[Rating()], [Rating()], [Rating()]], [1, 2, 3])
    assert first[0].rating == pytest.approx(1686.90, abs=0.01)
    assert second[0].rating == pytest.approx(1546.73, abs=0.01)
    assert third[0].rating == pytest.approx(1266.37, abs=0.01)
    assert first[0].deviation == pytest.approx(490.13, abs=0.01)


def seat(user, place=1, forfeited=False, cpu=False):
    return SeatResult(user_id=user, is_cpu=cpu, place=place, forfeited=forfeited)


def test_rating_keys():
    competitive = {"mode": "competitive", "pace": "slow"}
    assert rules.rating_key("karuta", "friend", competitive) == "karuta-competitive"
    assert rules.rating_key("karuta", "friend", {"mode": "competitive"}) == "karuta-competitive"
    assert rules.rating_key("karuta", "friend", {"mode": "chirashi"}) == "karuta-chirashi"
    assert rules.rating_key("karuta", "friend", {"mode": "genpei"}) == "karuta-genpei"
    assert rules.rating_key("karuta", "friend", {"mode": "solo"}) is None
    assert rules.rating_key("karuta", "friend", {"mode": "competitive", "poem_set": 2}) is None
    assert rules.rating_key("karuta", "cpu", competitive) is None
    assert rules.rating_key("karuta", "hotseat", competitive) is None
    assert rules.rating_key("bozu", "friend", {"players": 3}) == "bozu"
    assert rules.rating_key("bakudan", "friend", {}) == "bakudan"
    assert rules.rating_key("go", "friend", {}) is None


def test_only_games_between_signed_in_people_are_rated():
    people = [seat(1), seat(2, 2)]
    assert rules.unrated_reason(True, "bozu", people) is None
    assert rules.unrated_reason(False, "bozu", people) == "not rated"
    assert rules.unrated_reason(True, None, people) == "not a rated kind of game"
    assert rules.unrated_reason(True, "bozu", [seat(1), seat(None, 2)]) is not None
    cpu_from_start = [seat(1), SeatResult(user_id=2, is_cpu=True, place=2, forfeited=False)]
    assert rules.unrated_reason(True, "bozu", cpu_from_start) is not None
    assert rules.unrated_reason(True, "bozu", [seat(1), seat(1, 2)]) == "one person at two seats"


def test_forfeited_seats_lose_whatever_the_game_said():
    # Seat 0 was ahead (place 1) but left: it comes last; ties share a place.
    assert rules.places([seat(1, 1, True), seat(2, 2), seat(3, 2)]) == [3, 1, 1]
    before = {1: Rating(), 2: Rating()}
    after = rules.update("karuta-competitive", {}, [seat(1, 1, True), seat(2, 2)], before)
    assert after[1].rating < 1500 < after[2].rating
    # Both forfeited: among themselves, the game's order (as the match layer ranks them).
    assert rules.places([seat(1, 2, True), seat(2, 1, True), seat(3, 1)]) == [3, 2, 1]


def test_free_for_all_and_teams():
    before = {u: Rating(1500, 500, 0.0) for u in (1, 2, 3, 4)}
    ffa = rules.update("bozu", {}, [seat(1, 3), seat(2, 1), seat(3, 2)], before)
    assert ffa[2].rating > ffa[3].rating > ffa[1].rating
    genpei = {"mode": "genpei", "teams": [2, 2]}
    seats = [seat(1, 2), seat(2, 2), seat(3, 1), seat(4, 1)]
    teams = rules.update("karuta-genpei", genpei, seats, before)
    assert teams[1].rating == pytest.approx(teams[2].rating)
    assert teams[3].rating == pytest.approx(teams[4].rating)
    assert teams[1].rating < 1500 < teams[3].rating
    # A winner who left mid-game loses; the teammate who stayed keeps the team's win.
    seats = [seat(1, 1, True), seat(2, 1), seat(3, 3), seat(4, 3)]
    quit = rules.update("karuta-genpei", genpei, seats, before)
    assert quit[2].rating > 1500 > quit[1].rating
    with pytest.raises(ValueError):
        rules.update("karuta-genpei", {"teams": [3, 2]}, seats, before)
    # Teams arranged by the room's creator (seat_teams): seats 0 and 2 won together.
    moved = {**genpei, "seat_teams": [0, 1, 0, 1]}
    seats = [seat(1, 1), seat(2, 2), seat(3, 1), seat(4, 2)]
    arranged = rules.update("karuta-genpei", moved, seats, before)
    assert arranged[1].rating == pytest.approx(arranged[3].rating)
    assert arranged[2].rating == pytest.approx(arranged[4].rating)
    assert arranged[2].rating < 1500 < arranged[1].rating
    with pytest.raises(ValueError):
        rules.update("karuta-genpei", {**genpei, "seat_teams": [0, 0, 0, 1]}, seats, before)


def test_a_long_history_is_drawn_with_at_most_300_points_ending_on_the_last_game():
    from ratings import chart

    assert chart.line([]) is None
    one = chart.line([1500.0])
    assert one.games == 1 and len(one.points.split()) == 2  # a flat line across
    ratings = [1500.0 + (i % 7) * 10 for i in range(10_000)] + [2000.0]
    drawn = chart.line(ratings)
    points = drawn.points.split()
    assert drawn.games == 10_001 and len(points) == chart.MAX_POINTS
    assert drawn.high == 2000 and drawn.low == 1500
    assert points[-1].split(",")[1] == f"{chart.PAD:.1f}"  # the last game, at the top
