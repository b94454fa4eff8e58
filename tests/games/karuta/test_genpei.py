"""Genpei-sen (docs/requirements.md §3): every rule sentence on hand-built positions.

Two against two unless said otherwise: seats 0 and 1 are team A (the first team, side 0),
seats 2 and 3 team B (side 1). A's side holds 1, 2, 3 (one per row), B's 4, 5, 6; poem 50
is read but lies on no side (a dead card: only a poem subset leaves any).
"""

from __future__ import annotations

import random

import pytest

from gamekit import IllegalActionError, NotYourTurnError
from games.karuta import cpu, engine, simulate
from games.karuta.options import InvalidSettingsError

A, B = 0, 1  # sides (teams)
A1, A2, B1, B2 = 0, 1, 2, 3  # seats
A_SIDE = [[1], [2], [3]]
B_SIDE = [[4], [5], [6]]


def position(read_first, a_side=None, b_side=None, teams=(2, 2), settings=None):
    a_side = A_SIDE if a_side is None else a_side
    b_side = B_SIDE if b_side is None else b_side
    cards = [c for rows in (a_side, b_side) for row in rows for c in row]
    queue = list(dict.fromkeys([read_first, *cards, 50, 7, 8]))
    return engine.situation([a_side, b_side], queue, teams=teams, settings=settings)


def touch(state, seat, card, t):
    return engine.apply(state, seat, {"type": "touch", "card": card, "t": t})


def pass_rest(state, events=None):
    """Every seat still to finish passes; the events of the last pass (the result's)."""
    for seat in engine.to_act(state):
        state, events = engine.apply(state, seat, {"type": "pass"})
    return state, events


def result_of(events):
    found = [e for e in events if e["type"] == "result"]
    assert len(found) == 1
    return found[0]


def cards_of(state, side):
    return sorted(engine.side_cards(state, side))


# --- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("teams", [(1, 1), (2, 2), (1, 3), (4, 4)])
def test_all_hundred_cards_lie_fifty_a_side_in_three_rows_and_none_is_dead(teams):
    s = engine.new_state({"mode": "genpei", "teams": list(teams)}, [{}] * sum(teams), seed=7)
    assert s["settings"]["players"] == sum(teams)
    assert s["teams"] == [0] * teams[0] + [1] * teams[1]
    assert [len(row) for row in s["sides"][A]] == [16, 17, 17]
    assert sorted(engine.field_cards(s)) == list(range(1, 101)) == sorted(s["queue"])
    assert engine.view(s, None)["settings"]["teams"] == list(teams)


def test_a_poem_subset_lays_out_half_of_it_and_reads_the_rest_as_dead_cards():
    s = engine.new_state({"mode": "genpei", "poem_set": 2, "teams": [2, 2]}, [{}] * 4, seed=3)
    laid = engine.field_cards(s)
    assert len(engine.side_cards(s, A)) == len(engine.side_cards(s, B)) == 5
    assert sorted(s["queue"]) == list(range(21, 41)) and len(set(s["queue"]) - set(laid)) == 10


def test_the_deal_and_reading_order_follow_from_the_seed_alone():
    settings = {"mode": "genpei", "teams": [3, 2]}
    one, two = (engine.new_state(settings, [{}] * 5, seed=11) for _ in range(2))
    other = engine.new_state(settings, [{}] * 5, seed=12)
    assert one == two and one["sides"] != other["sides"]


@pytest.mark.parametrize(
    "settings",
    [
        {"teams": [5, 1]},
        {"teams": [0, 2]},
        {"teams": [2]},
        {"teams": [2, 2], "players": 3},
        {"teams": [1, 1], "seat_levels": ["futsu"]},
        {"teams": [1, 1], "seat_levels": [None, "grandmaster"]},
        {"otetsuki_rule": "some"},
        {"teams": [2, 2], "seat_teams": [0, 0, 0, 1]},  # not the sizes chosen
        {"teams": [2, 2], "seat_teams": [0, 1, 2, 1]},
        {"teams": [1, 1], "seat_teams": [1, 0, 1]},
        {"teams": [1, 1], "seat_teams": [True, False]},
    ],
)
def test_bad_team_settings_are_refused(settings):
    with pytest.raises(InvalidSettingsError):
        engine.normalize_settings({"mode": "genpei", **settings})


def test_teams_belong_to_genpei_only():
    with pytest.raises(InvalidSettingsError):
        engine.normalize_settings({"mode": "competitive", "teams": [1, 1]})
    with pytest.raises(InvalidSettingsError):
        engine.normalize_settings({"mode": "competitive", "seat_teams": [0, 1]})


def test_seats_moved_between_teams_play_for_the_team_they_were_moved_to():
    seats = [{"is_cpu": False}] + [{"is_cpu": True}] * 3
    moved = {"mode": "genpei", "teams": [1, 3], "seat_teams": [1, 1, 0, 1]}
    s = engine.new_state(moved, seats, seed=3)
    assert s["teams"] == [1, 1, 0, 1] and engine.team_seats(s, 0) == [2]
    plain = engine.new_state({"mode": "genpei", "teams": [1, 3]}, seats, seed=3)
    assert plain["teams"] == [0, 1, 1, 1] and plain["sides"] == s["sides"]


def test_seat_levels_set_each_cpu_seat_s_level():
    settings = {"mode": "genpei", "teams": [2, 2], "seat_levels": [None, "meijin", "yowai", None]}
    seats = [{"is_cpu": False}, {"is_cpu": True}, {"is_cpu": True}, {"is_cpu": True}]
    s = engine.new_state({**settings, "cpu_level": "futsu"}, seats, seed=1)
    assert [seat["level"] for seat in s["seats"]] == [None, "meijin", "yowai", "futsu"]
    assert [f is not None for f in s["form"]] == [False, True, True, True]  # each CPU's form


# --- takes and sends -------------------------------------------------------------------------


def test_taking_a_card_on_your_team_s_side_removes_it_and_sends_nothing():
    s = position(2)
    s, _ = touch(s, A2, 2, 400)
    s, events = pass_rest(s)
    r = result_of(events)
    assert (r["taker"], r["taker_team"], r["side"], r["send"]) == (A2, A, A, None)
    assert cards_of(s, A) == [1, 3] and cards_of(s, B) == [4, 5, 6]
    assert s["phase"] == "reading"


def test_taking_from_the_enemy_side_makes_the_taker_send_one_team_card_of_their_choice():
    s = position(5)
    s, _ = touch(s, A1, 5, 400)
    s, events = pass_rest(s)
    assert result_of(events)["send"] == {"from": A, "to": B, "count": 1, "by": A1}
    assert s["phase"] == "send" and engine.to_act(s) == (A1,)
    with pytest.raises(NotYourTurnError):  # a teammate does not choose for the taker
        engine.apply(s, A2, {"type": "send", "card": 3})
    with pytest.raises(IllegalActionError):  # only a card of the taker's team
        engine.apply(s, A1, {"type": "send", "card": 4})
    assert {a["card"] for a in engine.legal_actions(s, A1)} == {1, 2, 3}
    s, events = engine.apply(s, A1, {"type": "send", "card": 3})
    assert events[0] == {"type": "send", "from": A, "receiver": B, "card": 3, "by": A1}
    assert cards_of(s, A) == [1, 2] and cards_of(s, B) == [3, 4, 6]
    assert s["sides"][B][1] == [3]  # the receiving row with the fewest cards (middle first)
    assert s["phase"] == "reading"


def test_any_member_may_rearrange_the_team_s_side_but_not_the_enemy_s():
    s = engine.situation([A_SIDE, B_SIDE], [1, 2, 3, 4, 5, 6], teams=(2, 2))
    s, _ = engine.apply(s, A2, {"type": "arrange", "rows": [[], [1, 2], [3]], "t": -500})
    assert s["sides"][A] == [[], [1, 2], [3]]
    with pytest.raises(IllegalActionError):
        engine.apply(s, B1, {"type": "arrange", "rows": [[1], [2], [3]], "t": -400})


# --- otetsuki ----------------------------------------------------------------------------------


def test_a_touch_on_the_side_where_the_read_card_is_not_is_otetsuki_the_enemy_sends_one():
    s = position(5)  # B's card; A1 touches its own side
    s, _ = touch(s, A1, 1, 300)
    s, _ = touch(s, B2, 5, 500)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["otetsuki"] == [1, 0, 0, 0] and r["team_otetsuki"] == [1, 0]
    # B took its own card and sends the penalty: chosen by its taker.
    assert r["send"] == {"from": B, "to": A, "count": 1, "by": B2}
    s, _ = engine.apply(s, B2, {"type": "send", "card": 6})
    assert cards_of(s, A) == [1, 2, 3, 6] and cards_of(s, B) == [4]


def test_by_default_a_wrong_card_on_the_read_card_s_side_is_no_otetsuki():
    s = position(5)
    s, _ = touch(s, A1, 4, 300)  # B's side, as the read card
    s, _ = touch(s, A1, 5, 600)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["otetsuki"] == [0, 0, 0, 0] and r["send"]["count"] == 1  # the take's send only


def test_the_menu_option_counts_any_wrong_card():
    s = position(5, settings={"otetsuki_rule": "any"})
    s, _ = touch(s, A1, 4, 300)
    s, _ = touch(s, A1, 5, 600)
    s, events = pass_rest(s)
    r = result_of(events)
    # The take's send and the penalty cancel, as a take plus otetsuki does in competitive.
    assert r["otetsuki"] == [1, 0, 0, 0] and r["cancelled"] and r["send"] is None
    assert cards_of(s, A) == [1, 2, 3] and cards_of(s, B) == [4, 6]


def test_each_member_s_otetsuki_costs_the_team_a_card_chosen_by_the_enemy_s_first_seat():
    s = position(50)  # a dead card; both A seats touch
    s, _ = touch(s, A1, 1, 300)
    s, _ = touch(s, A2, 2, 350)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["dead"] and r["team_otetsuki"] == [2, 0]
    assert r["send"] == {"from": B, "to": A, "count": 2, "by": B1}
    assert engine.to_act(s) == (B1,)


def test_both_teams_committing_otetsuki_cancel_every_penalty():
    s = position(50)
    s, _ = touch(s, A1, 1, 300)
    s, _ = touch(s, B2, 4, 320)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["tomo_otetsu"] and r["send"] is None


def test_dabu_your_card_read_a_teammate_touches_the_enemy_side_and_the_enemy_takes():
    s = position(1)
    s, _ = touch(s, A2, 4, 300)
    s, _ = touch(s, B1, 1, 500)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["dabu"] and r["send"] == {"from": B, "to": A, "count": 2, "by": B1}


# --- dead cards ----------------------------------------------------------------------------------


def test_a_dead_card_makes_every_touch_otetsuki_and_both_sides_count_twice():
    s = position(50)
    s, _ = touch(s, B2, 1, 300)
    s, _ = touch(s, B2, 4, 400)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["dead"] and r["taker"] is None and r["otetsuki"] == [0, 0, 0, 2]
    assert r["send"] == {"from": A, "to": B, "count": 2, "by": A1}


# --- ties ----------------------------------------------------------------------------------------


def test_a_tie_on_the_read_card_goes_to_the_team_on_whose_side_it_lies():
    s = position(5)
    s, _ = touch(s, A1, 5, 500)
    s, _ = touch(s, B2, 5, 500)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["simultaneous"] and (r["taker"], r["taker_team"], r["send"]) == (B2, B, None)


def test_a_tie_between_enemy_seats_goes_to_the_first_of_them_who_sends():
    s = position(5)
    s, _ = touch(s, A2, 5, 500)
    s, _ = touch(s, A1, 5, 500)
    s, events = pass_rest(s)
    r = result_of(events)
    assert r["taker"] == A1 and r["send"]["by"] == A1


def test_only_the_first_touch_counts_later_touches_are_not_otetsuki():
    s = position(5)
    s, _ = touch(s, B1, 5, 500)
    s, _ = touch(s, A1, 1, 700)  # after the take: does not count
    s, events = pass_rest(s)
    assert result_of(events)["otetsuki"] == [0, 0, 0, 0]


# --- the end -----------------------------------------------------------------------------------


def test_the_team_whose_side_empties_first_wins_and_the_other_side_is_the_margin():
    s = position(4, b_side=[[4], [], []])
    s, _ = touch(s, B1, 4, 400)
    s, events = pass_rest(s)
    over = events[-1]
    assert s["phase"] == "over" and over["type"] == "over"
    result = engine.result(s)
    assert result["winner_team"] == B and result["places"] == [2, 2, 1, 1]
    assert result["team_scores"] == [3, 0] and result["margin"] == 3
    assert engine.to_act(s) == ()


def test_the_enemy_taking_your_last_card_sends_you_one_and_play_goes_on():
    s = position(4, b_side=[[4], [], []])
    s, _ = touch(s, A1, 4, 400)
    s, _ = pass_rest(s)
    assert cards_of(s, B) == [] and s["phase"] == "send"  # A owes B a card
    s, _ = engine.apply(s, A1, {"type": "send", "card": 2})
    assert cards_of(s, B) == [2] and s["phase"] == "reading"


def test_a_send_that_empties_the_sender_s_side_wins_for_the_sender():
    s = position(5, a_side=[[1], [], []])
    s, _ = touch(s, A2, 5, 400)
    s, _ = pass_rest(s)
    s, events = engine.apply(s, A2, {"type": "send", "card": 1})
    assert events[-1]["type"] == "over" and events[-1]["winner_team"] == A
    assert events[-1]["margin"] == 3 and engine.result(s)["places"] == [1, 1, 2, 2]


def test_sends_are_capped_by_what_the_sender_holds():
    s = position(50, a_side=[[1], [], []])  # A owes 2 for B's double otetsuki, holds 1
    s, _ = touch(s, B1, 1, 300)
    s, _ = touch(s, B1, 4, 400)
    s, events = pass_rest(s)
    assert result_of(events)["send"]["count"] == 1
    s, _ = engine.apply(s, A1, {"type": "send", "card": 1})
    assert s["phase"] == "over" and engine.result(s)["winner_team"] == A


# --- CPU seats -----------------------------------------------------------------------------------


def test_a_cpu_taker_chooses_its_team_s_send_by_its_level_s_policy():
    # A smart sender sends the card its policy scores highest; a weak one any card.
    s = position(5, a_side=[[8], [87], [3]])
    s, _ = touch(s, A2, 5, 400)
    s, _ = pass_rest(s)
    view = engine.view(s, A2)
    smart = cpu.cpu_policy(view, A2, "meijin", random.Random(1))
    assert smart["type"] == "send" and smart["card"] in {3, 8, 87}
    best = max((3, 8, 87), key=lambda c: cpu.send_score(c, [3, 8, 87]))
    assert smart["card"] == best
    drawn = {cpu.cpu_policy(view, A2, "nyumon", random.Random(n))["card"] for n in range(30)}
    assert drawn == {3, 8, 87}  # a weak level sends any of its team's cards


def test_a_cpu_knows_its_team_s_side_as_its_own():
    s = position(5)
    view = engine.view(s, B2)
    assert cpu.lies_on_own_side(view, B2, 5) and not cpu.lies_on_own_side(view, B2, 2)


@pytest.mark.parametrize("teams", [(1, 1), (2, 2), (3, 1)])
def test_cpu_teams_play_a_whole_game_to_one_empty_side_the_same_way_from_a_seed(teams):
    levels = ["futsu"] * sum(teams)
    settings = {"mode": "genpei", "teams": list(teams)}
    one = simulate.play(levels, seed=5, settings=settings)
    two = simulate.play(levels, seed=5, settings=settings)
    assert one == two and one["phase"] == "over"
    left = [len(engine.side_cards(one, side)) for side in (A, B)]
    winner = engine.result(one)["winner_team"]
    assert left[winner] == 0 and left[1 - winner] > 0
    assert sum(left) + len(one["read"]) == 100  # every card read or still on a side
