"""Every competitive case of docs/requirements.md §3 on hand-built positions.

Seat 0 is "A", seat 1 is "B". A holds 1, 2, 3 (one per row), B holds 4, 5, 6;
poem 50 is a dead card (read, never on the field).
"""

from __future__ import annotations

import json

import pytest

from gamekit import GameOverError, IllegalActionError, InvalidActionError, NotYourTurnError
from games.karuta import engine

A, B = 0, 1
A_SIDE = [[1], [2], [3]]
B_SIDE = [[4], [5], [6]]
REST = [7, 8, 9, 10]


def position(read_first: int, a_side=None, b_side=None, rest=None):
    a_side = A_SIDE if a_side is None else a_side
    b_side = B_SIDE if b_side is None else b_side
    cards = [c for rows in (a_side, b_side) for row in rows for c in row]
    queue = [read_first, *[c for c in cards if c != read_first], 50, *(rest or REST)]
    queue = list(dict.fromkeys(queue))
    return engine.situation([a_side, b_side], queue)


def act(state, seat, action):
    return engine.apply(state, seat, action)


def touch(state, seat, card, t):
    return act(state, seat, {"type": "touch", "card": card, "t": t})


def passes(state, seat):
    return act(state, seat, {"type": "pass"})


def cards_of(state, seat):
    return sorted(engine.side_cards(state, seat))


def result_of(events):
    found = [e for e in events if e["type"] == "result"]
    assert len(found) == 1
    return found[0]


def test_taking_on_your_own_side_removes_your_card_and_sends_nothing():
    s = position(1)
    s, _ = touch(s, A, 1, 500)
    s, events = passes(s, B)
    r = result_of(events)
    assert (r["taker"], r["side"], r["otetsuki"], r["send"]) == (A, A, [0, 0], None)
    assert cards_of(s, A) == [2, 3] and cards_of(s, B) == [4, 5, 6]
    assert s["phase"] == "reading" and s["reading"]["poem"] != 1


def test_taking_on_the_far_side_makes_you_send_one_card_of_your_choice():
    s = position(4)
    s, _ = touch(s, A, 4, 500)
    s, events = passes(s, B)
    assert result_of(events)["send"] == {"from": A, "to": B, "count": 1}
    assert s["phase"] == "send" and engine.to_act(s) == (A,)
    s, events = act(s, A, {"type": "send", "card": 2})
    assert events[0] == {"type": "send", "from": A, "receiver": B, "card": 2}
    assert cards_of(s, A) == [1, 3] and cards_of(s, B) == [2, 5, 6]
    assert s["phase"] == "reading"


def test_otetsuki_on_the_wrong_side_costs_one_card_sent_by_the_opponent():
    s = position(4)  # B's card is read; A touches its own side
    s, _ = touch(s, A, 1, 300)
    s, _ = passes(s, A)
    s, events = touch(s, B, 4, 600)
    r = result_of(events)
    assert r["otetsuki"] == [1, 0] and r["taker"] == B
    assert r["send"] == {"from": B, "to": A, "count": 1} and not r["dabu"]
    s, _ = act(s, B, {"type": "send", "card": 5})
    assert cards_of(s, A) == [1, 2, 3, 5] and cards_of(s, B) == [6]


def test_dabu_own_card_read_you_touch_the_far_side_and_the_opponent_takes_it():
    s = position(1)  # A's card is read
    s, _ = touch(s, A, 4, 300)  # A touches B's side: otetsuki
    s, _ = passes(s, A)
    s, events = touch(s, B, 1, 600)  # B takes from A's side
    r = result_of(events)
    assert r["dabu"] and r["send"] == {"from": B, "to": A, "count": 2}
    s, _ = act(s, B, {"type": "send", "card": 5})
    assert s["phase"] == "send" and s["send"]["remaining"] == 1
    s, _ = act(s, B, {"type": "send", "card": 6})
    assert cards_of(s, A) == [2, 3, 5, 6] and cards_of(s, B) == [4]


def test_dabu_is_named_by_its_cause_even_when_the_taker_has_one_card_to_send():
    s = position(1, b_side=[[4], [], []])  # A's card is read; B holds a single card
    s, _ = touch(s, A, 4, 300)  # A touches B's side: otetsuki
    s, _ = passes(s, A)
    s, events = touch(s, B, 1, 600)  # B takes A's card: it owes 2 but can send only 1
    r = result_of(events)
    assert r["dabu"]
    assert r["send"] == {"from": B, "to": A, "count": 1}


def test_take_on_the_far_side_after_touching_your_own_side_cancels_send_and_penalty():
    s = position(4)  # B's card
    s, _ = touch(s, A, 1, 300)  # own side: otetsuki
    s, _ = touch(s, A, 4, 500)  # … but A still takes it
    s, events = passes(s, B)
    r = result_of(events)
    assert r["taker"] == A and r["otetsuki"] == [1, 0]
    assert r["cancelled"] and r["send"] is None
    assert cards_of(s, A) == [1, 2, 3] and cards_of(s, B) == [5, 6]
    assert s["phase"] == "reading"


def test_dead_card_touching_one_card_is_otetsuki():
    s = position(50)
    s, _ = touch(s, A, 4, 400)
    s, _ = passes(s, A)
    s, events = passes(s, B)
    r = result_of(events)
    assert r["dead"] and r["otetsuki"] == [1, 0] and r["taker"] is None
    assert r["send"] == {"from": B, "to": A, "count": 1}


def test_dead_card_touching_both_sides_receives_two():
    s = position(50)
    s, _ = touch(s, A, 1, 400)
    s, _ = touch(s, A, 4, 450)
    s, _ = passes(s, A)
    s, events = passes(s, B)
    r = result_of(events)
    assert r["otetsuki"] == [2, 0] and r["send"]["count"] == 2
    assert not r["dabu"]  # seed 003 case E: two cards "for the otetsuki", not ダブ


def test_tomo_otetsu_means_no_penalty():
    s = position(50)
    s, _ = touch(s, A, 4, 400)
    s, _ = passes(s, A)
    s, _ = touch(s, B, 1, 500)
    s, events = passes(s, B)
    r = result_of(events)
    assert r["tomo_otetsu"] and r["otetsuki"] == [1, 1] and r["send"] is None
    assert cards_of(s, A) == [1, 2, 3] and cards_of(s, B) == [4, 5, 6]


def test_tomo_otetsu_still_sends_for_a_take_on_the_far_side():
    s = position(4)  # B's card
    s, _ = touch(s, B, 1, 300)  # B touches A's side: otetsuki
    s, _ = passes(s, B)
    s, _ = touch(s, A, 2, 350)  # A touches its own side: otetsuki as well
    s, events = touch(s, A, 4, 500)  # and takes
    r = result_of(events)
    assert r["tomo_otetsu"] and r["send"] == {"from": A, "to": B, "count": 1}


@pytest.mark.parametrize(("card", "owner"), [(1, A), (4, B)])
def test_simultaneous_touch_goes_to_the_side_the_card_lies_on(card, owner):
    s = position(card)
    s, _ = touch(s, A, card, 500)
    s, events = touch(s, B, card, 500)
    r = result_of(events)
    assert r["taker"] == owner and r["simultaneous"] and r["send"] is None


def test_earlier_touch_wins_even_on_the_far_side():
    s = position(1)
    s, _ = touch(s, A, 1, 700)
    s, events = touch(s, B, 1, 500)
    r = result_of(events)
    assert r["taker"] == B and r["send"] == {"from": B, "to": A, "count": 1}


def test_wrong_card_on_the_read_cards_side_is_no_otetsuki_and_you_may_go_on():
    s = position(4)
    s, _ = touch(s, A, 5, 300)  # B's side, like the read card
    assert A in engine.to_act(s)  # A may go on
    s, _ = touch(s, A, 4, 450)
    s, events = passes(s, B)
    r = result_of(events)
    assert r["taker"] == A and r["otetsuki"] == [0, 0]
    assert r["send"] == {"from": A, "to": B, "count": 1}


def test_touches_after_the_card_was_taken_do_not_count():
    s = position(1)
    s, _ = touch(s, B, 1, 400)
    s, _ = touch(s, A, 4, 600)  # after B took: no otetsuki
    s, events = passes(s, A)
    r = result_of(events)
    assert r["taker"] == B and r["otetsuki"] == [0, 0]
    assert r["send"] == {"from": B, "to": A, "count": 1}


def test_a_touch_at_the_moment_of_the_take_still_counts():
    s = position(1)
    s, _ = touch(s, B, 1, 400)
    s, _ = touch(s, A, 4, 400)
    s, events = passes(s, A)
    assert result_of(events)["otetsuki"] == [1, 0]


def test_a_live_card_nobody_touched_is_taken_off_by_its_owner():
    s = position(4)
    s, _ = passes(s, A)
    s, events = passes(s, B)
    r = result_of(events)
    assert r["untouched"] and r["taker"] is None and r["send"] is None
    assert cards_of(s, B) == [5, 6]


def test_taking_your_last_card_wins_even_if_the_opponent_owes_you_nothing_to_send():
    s = position(1, a_side=[[1], [], []])
    s, _ = touch(s, B, 5, 300)  # B's own side while A's card is read: otetsuki
    s, _ = passes(s, B)
    s, events = touch(s, A, 1, 500)
    r = result_of(events)
    assert r["taker"] == A and r["send"] is None  # A owes B a card but has none left
    assert s["phase"] == "over" and engine.result(s)["winner"] == A
    assert engine.result(s)["places"] == [1, 2]
    assert engine.to_act(s) == ()
    with pytest.raises(GameOverError):
        passes(s, A)


def test_otetsuki_after_taking_your_last_card_keeps_you_in_the_game():
    s = position(1, a_side=[[1], [], []])
    s, _ = touch(s, A, 4, 300)  # B's side: otetsuki
    s, events = touch(s, A, 1, 500)  # then takes own last card
    s, events = passes(s, B)
    r = result_of(events)
    assert r["send"] == {"from": B, "to": A, "count": 1}
    s, _ = act(s, B, {"type": "send", "card": 4})
    assert s["phase"] == "reading" and cards_of(s, A) == [4]


def test_sending_your_last_card_for_the_opponents_otetsuki_wins():
    s = position(50, a_side=[[1], [], []])
    s, _ = passes(s, A)
    s, _ = touch(s, B, 1, 300)  # dead card: otetsuki
    s, _ = passes(s, B)
    s, events = act(s, A, {"type": "send", "card": 1})
    assert s["phase"] == "over" and engine.result(s)["winner"] == A
    assert any(e["type"] == "over" for e in events)


def test_a_received_card_goes_to_the_shortest_row():
    s = position(4, a_side=[[1, 2], [3, 7], [8]])
    s, _ = touch(s, A, 4, 500)
    s, _ = passes(s, B)
    s, _ = act(s, A, {"type": "send", "card": 1})
    assert s["sides"][B] == [[1], [5], [6]]  # the upper row was the shortest


# --- refused actions change nothing --------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (A, {"type": "touch", "card": 50, "t": 100}, IllegalActionError),  # dead card
        (A, {"type": "touch", "card": 1, "t": -5}, IllegalActionError),
        (A, {"type": "touch", "card": 1, "t": 10**7}, IllegalActionError),
        (A, {"type": "touch", "card": "1", "t": 100}, InvalidActionError),
        (A, {"type": "touch", "card": 1, "t": True}, InvalidActionError),
        (A, {"type": "touch", "card": 1}, InvalidActionError),
        (A, {"type": "jump"}, InvalidActionError),
        (A, {"card": 1}, InvalidActionError),
        (A, {"type": "send", "card": 1}, IllegalActionError),
        (A, {"type": "ready"}, IllegalActionError),
        (A, {"type": "arrange", "rows": [[1], [2], [3]], "t": 0}, IllegalActionError),
        (A, {"type": "arrange", "rows": [[1], [2], [4]], "t": -10}, IllegalActionError),
        (A, {"type": "arrange", "rows": [[1, 2, 3]], "t": -10}, InvalidActionError),
        (5, {"type": "pass"}, InvalidActionError),
    ],
)
def test_refused_actions_raise_and_change_nothing(seat, action, error):
    s = position(1)
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(error):
        engine.apply(s, seat, action)
    assert json.dumps(s, sort_keys=True) == before


def test_touch_order_repeats_and_finished_seats_are_refused():
    s = position(4)
    s, _ = touch(s, A, 5, 300)
    with pytest.raises(IllegalActionError):
        touch(s, A, 6, 200)  # earlier than the previous touch
    with pytest.raises(IllegalActionError):
        touch(s, A, 5, 400)  # same card again
    s, _ = touch(s, A, 4, 450)
    with pytest.raises(NotYourTurnError):
        touch(s, A, 6, 500)
    with pytest.raises(NotYourTurnError):
        passes(s, A)
    s, _ = passes(s, B)
    with pytest.raises(NotYourTurnError):
        act(s, B, {"type": "send", "card": 5})  # A is the sender
    with pytest.raises(IllegalActionError):
        act(s, A, {"type": "send", "card": 5})  # not A's card


def test_arranging_before_the_upper_verse_moves_cards():
    s = position(1)
    s, events = act(s, A, {"type": "arrange", "rows": [[3, 2], [], [1]], "t": -2000})
    assert s["sides"][A] == [[3, 2], [], [1]] and events == [{"type": "arranged", "seat": A}]
    s, _ = touch(s, A, 2, 100)
    with pytest.raises(NotYourTurnError):
        act(s, A, {"type": "arrange", "rows": [[3], [2], [1]], "t": -100})


def test_memorisation_waits_for_every_seat_and_allows_arranging():
    s = engine.new_state(
        {"mode": "competitive", "memorise_seconds": 60},
        [{"is_cpu": False}, {"is_cpu": True, "level": "meijin"}],
        3,
    )
    assert s["phase"] == "memorise" and engine.to_act(s) == (0, 1)
    rows = s["sides"][A]
    flipped = [rows[2], rows[1], rows[0]]
    s, _ = act(s, A, {"type": "arrange", "rows": flipped})
    s, _ = act(s, A, {"type": "ready"})
    assert engine.to_act(s) == (1,)
    with pytest.raises(NotYourTurnError):
        act(s, A, {"type": "ready"})
    s, events = act(s, B, {"type": "ready"})
    assert s["phase"] == "reading" and s["sides"][A] == flipped
    assert events[-1]["type"] == "reading" and events[-1]["prev"] == 0  # the 序歌 first


def test_dead_cards_are_read_and_shrink_kimariji():
    # ちぎりおきし (75) needs ちぎりお while ちぎりきな (42) is unread, only ちぎ once it is read.
    rest = [n for n in range(1, 101) if n not in (42, 75)]
    s = engine.situation([[[75], [], []], [[1], [], []]], [75, 42, *rest])
    assert s["reading"]["kimariji"] == 4
    s = engine.situation([[[75], [], []], [[1], [], []]], [42, 75, *rest])
    assert engine.side_of(s, 42) is None  # a dead card …
    s, _ = passes(s, A)
    s, _ = passes(s, B)
    assert s["read"] == [42] and s["reading"]["poem"] == 75  # … is read all the same
    assert s["reading"]["kimariji"] == 2


def test_shown_kimariji_are_the_current_dynamic_ones():
    rest = [n for n in range(1, 101) if n not in (42, 75, 17)]
    sides = [[[75], [17], []], [[1], [], []]]
    s = engine.situation(sides, [42, 75, 17, *rest], settings={"show_kimariji": True})
    assert engine.view(s, 0)["kimariji"] == {"75": 4, "17": 2, "1": 3}
    s, _ = passes(s, A)
    s, _ = passes(s, B)  # ちぎりきな (42), a dead card, has been read
    assert engine.view(s, None)["kimariji"] == {"75": 2, "17": 2, "1": 3}
    assert "kimariji" not in engine.view(position(1), 0)  # only when the option is on
