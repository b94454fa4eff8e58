"""The pure engine: every rule on hand-built piles, refusals, determinism, views, storage."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit import GameOverError, InvalidActionError, NotYourTurnError
from games.bozu import engine
from games.bozu.rules import InvalidSettingsError, Rules, all_rules
from tests.games.bozu.cards import EMPERORS, MONKS, NYUDO, PRINCESSES, SEMIMARU, nobles

DRAW = {"type": "draw"}


def play(state: engine.BozuState, draws: int | None = None):
    """Draw `draws` times (or to the end); return the final state and every event."""
    events = []
    while state.to_act is not None and (draws is None or draws > 0):
        state, new = engine.apply(state, state.to_act, DRAW)
        events += new
        draws = None if draws is None else draws - 1
    return state, events


def drawers(events) -> list[int]:
    return [e["seat"] for e in events if e["type"] == "drew"]


def of_type(events, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# --- the core rules ---------------------------------------------------------------


def test_noble_is_kept_and_the_turn_passes():
    n1, n2 = nobles(2)
    state, events = engine.apply(engine.new_game(Rules(players=3), [n1, n2]), 0, DRAW)
    assert state.hands == ((n1,), (), ())
    assert state.to_act == 1
    assert [e["type"] for e in events] == ["drew", "kept"]
    assert events[0] | {"poet": None, "poet_kana": None} == {
        "type": "drew",
        "seat": 0,
        "poem": n1,
        "poet": None,
        "poet_kana": None,
        "class": "noble",
        "extra": False,
        "pile": 1,
    }
    assert events[1] == {"type": "kept", "seat": 0, "poem": n1, "hand": 1}


def test_nyudo_are_plain_nobles():
    state, events = engine.apply(engine.new_game(Rules(), [NYUDO[0], *nobles(1)]), 0, DRAW)
    assert state.hands[0] == (NYUDO[0],)
    assert state.to_act == 1
    assert [e["type"] for e in events] == ["drew", "kept"]


def test_monk_sends_hand_and_monk_to_the_field():
    n = nobles(5)
    pile = [n[0], n[1], n[2], n[3], MONKS[0], n[4]]
    state, events = play(engine.new_game(Rules(players=2), pile), draws=5)
    assert state.hands == ((), (n[1], n[3]))
    assert state.field == (n[0], n[2], MONKS[0])
    assert events[-1] == {
        "type": "to_field",
        "seat": 0,
        "poem": MONKS[0],
        "cards": 3,
        "hand": 0,
        "field": 3,
    }
    assert state.to_act == 1


def test_princess_takes_the_field_and_herself():
    n = nobles(5)
    pile = [n[0], n[1], n[2], n[3], MONKS[0], PRINCESSES[0], n[4]]
    state, events = play(engine.new_game(Rules(players=2), pile), draws=6)
    assert state.hands == ((), (n[1], n[3], n[0], n[2], MONKS[0], PRINCESSES[0]))
    assert state.field == ()
    assert events[-1] == {
        "type": "took_field",
        "seat": 1,
        "poem": PRINCESSES[0],
        "cards": 4,
        "from_field": 3,
        "hand": 6,
    }


def test_princess_on_an_empty_field_takes_only_herself():
    state, events = engine.apply(engine.new_game(Rules(), [PRINCESSES[0], *nobles(1)]), 0, DRAW)
    assert state.hands[0] == (PRINCESSES[0],)
    assert events[-1]["cards"] == 1 and events[-1]["from_field"] == 0
    assert state.to_act == 1  # the extra draw is off by default


def test_monk_with_an_empty_hand_sends_only_itself():
    state, _ = engine.apply(engine.new_game(Rules(), [MONKS[0], *nobles(1)]), 0, DRAW)
    assert state.field == (MONKS[0],)
    assert state.hands[0] == ()


# --- Semimaru's four rules -------------------------------------------------------------


def test_semimaru_as_a_monk_sends_the_hand_to_the_field():
    n = nobles(3)
    pile = [n[0], n[1], SEMIMARU, n[2]]
    state, events = play(engine.new_game(Rules(players=2, semimaru="monk"), pile), draws=3)
    assert state.field == (n[0], SEMIMARU)
    assert state.hands == ((), (n[1],))
    assert events[-1]["type"] == "to_field" and events[-1]["cards"] == 2


def test_semimaru_as_a_noble_is_kept():
    n = nobles(3)
    pile = [n[0], n[1], SEMIMARU, n[2]]
    state, events = play(engine.new_game(Rules(players=2, semimaru="noble"), pile), draws=3)
    assert state.hands == ((n[0], SEMIMARU), (n[1],))
    assert state.field == ()
    assert events[-1]["type"] == "kept"
    assert state.to_act == 1
    assert state.skip_next == (False, False)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("drawer", [0, 1])
def test_semimaru_lose_a_turn_skips_exactly_the_next_turn(players, drawer):
    rules = Rules(players=players, semimaru="skip_turn")
    pile = [*nobles(drawer), SEMIMARU, *nobles(4 * players, start=drawer)]
    state, events = play(engine.new_game(rules, pile))

    others = [(drawer + k) % players for k in range(1, players)]
    # Semimaru, one round of the others, the drawer's lost turn, the others again, then
    # the drawer draws as usual.
    expected = [*range(drawer), drawer, *others, *others, drawer, *others, drawer]
    assert drawers(events)[: len(expected)] == expected
    assert [e["seat"] for e in of_type(events, "turn_skipped")] == [drawer]
    assert of_type(events, "skip_next") == [{"type": "skip_next", "seat": drawer}]
    assert SEMIMARU in state.hands[drawer]
    assert sum(len(h) for h in state.hands) == len(pile)  # nobody lost a card


def test_semimaru_lose_a_turn_is_shown_in_the_view_until_it_is_spent():
    rules = Rules(players=3, semimaru="skip_turn")
    state = engine.new_game(rules, [SEMIMARU, *nobles(6)])
    state, _ = engine.apply(state, 0, DRAW)
    assert engine.view(state, None)["skip_next"] == [True, False, False]
    state, _ = engine.apply(state, 1, DRAW)
    state, events = engine.apply(state, 2, DRAW)
    assert events[-1] == {"type": "turn_skipped", "seat": 0}
    assert state.to_act == 1
    assert engine.view(state, None)["skip_next"] == [False, False, False]


def test_semimaru_others_cards_to_the_field():
    n = nobles(5)
    rules = Rules(players=3, semimaru="others_to_field")
    pile = [n[0], n[1], n[2], n[3], n[4], SEMIMARU, *nobles(1, start=5)]
    state, events = play(engine.new_game(rules, pile), draws=6)
    assert state.hands == ((), (), (n[2], SEMIMARU))
    assert state.field == (n[0], n[3], n[1], n[4])  # the hands in turn order after the drawer
    assert events[-2:] == [
        {"type": "kept", "seat": 2, "poem": SEMIMARU, "hand": 2},
        {
            "type": "others_to_field",
            "seat": 2,
            "moved": [{"seat": 0, "cards": 2}, {"seat": 1, "cards": 2}],
            "cards": 4,
            "field": 4,
        },
    ]
    assert state.to_act == 0


# --- extra draws ------------------------------------------------------------------


def test_emperor_as_a_noble_by_default():
    state, events = engine.apply(engine.new_game(Rules(), [EMPERORS[0], *nobles(1)]), 0, DRAW)
    assert state.hands[0] == (EMPERORS[0],)
    assert state.to_act == 1
    assert not of_type(events, "extra_draw")


def test_emperor_draw_again():
    rules = Rules(players=2, emperor="draw_again")
    n = nobles(2)
    state, events = engine.apply(engine.new_game(rules, [EMPERORS[0], *n]), 0, DRAW)
    assert events[-1] == {"type": "extra_draw", "seat": 0, "reason": "emperor"}
    assert state.to_act == 0 and state.extra_draw
    with pytest.raises(NotYourTurnError):
        engine.apply(state, 1, DRAW)
    state, events = engine.apply(state, 0, DRAW)
    assert events[0]["extra"] is True
    assert state.hands == ((EMPERORS[0], n[0]), ())
    assert state.to_act == 1 and not state.extra_draw


def test_emperor_drawn_as_the_extra_draw_draws_again():
    rules = Rules(players=2, emperor="draw_again")
    n = nobles(2)
    pile = [EMPERORS[0], EMPERORS[1], n[0], n[1]]
    state, events = play(engine.new_game(rules, pile), draws=3)
    assert drawers(events) == [0, 0, 0]
    assert [e["reason"] for e in of_type(events, "extra_draw")] == ["emperor", "emperor"]
    assert state.hands == ((EMPERORS[0], EMPERORS[1], n[0]), ())
    assert state.to_act == 1


def test_emperor_as_the_last_card_ends_the_game():
    rules = Rules(players=2, emperor="draw_again")
    pile = [*nobles(1), EMPERORS[0]]
    state, events = play(engine.new_game(rules, pile))
    assert drawers(events) == [0, 1]
    assert not of_type(events, "extra_draw")
    assert events[-1]["type"] == "game_over"
    assert state.to_act is None and not state.extra_draw
    assert engine.legal_actions(state, 1) == []


def test_princess_extra_draw_when_the_field_is_empty():
    rules = Rules(players=2, princess_extra_draw=True)
    state, events = engine.apply(engine.new_game(rules, [PRINCESSES[0], *nobles(2)]), 0, DRAW)
    assert events[-1] == {"type": "extra_draw", "seat": 0, "reason": "princess"}
    assert state.to_act == 0


def test_no_princess_extra_draw_when_the_field_holds_cards():
    rules = Rules(players=2, princess_extra_draw=True)
    pile = [*nobles(1), MONKS[0], PRINCESSES[0], *nobles(2, start=1)]
    state, events = play(engine.new_game(rules, pile), draws=3)
    assert state.hands[0] == (nobles(1)[0], MONKS[0], PRINCESSES[0])
    assert not of_type(events, "extra_draw")
    assert state.to_act == 1


def test_no_princess_extra_draw_when_the_option_is_off():
    state, events = engine.apply(
        engine.new_game(Rules(players=2), [PRINCESSES[0], *nobles(2)]), 0, DRAW
    )
    assert not of_type(events, "extra_draw")
    assert state.to_act == 1


def test_the_game_ends_with_the_pile_even_when_an_extra_draw_is_owed():
    rules = Rules(players=2, princess_extra_draw=True)
    state, events = play(engine.new_game(rules, [*nobles(1), PRINCESSES[0]]))
    assert drawers(events) == [0, 1]
    assert not of_type(events, "extra_draw")
    assert state.is_over and state.pile == ()
    assert engine.result(state) == {
        "places": [1, 1],
        "cards": [1, 1],
        "winners": [0, 1],
        "draw": True,
    }


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: str(r.to_settings()))
def test_a_full_game_draws_exactly_the_hundred_cards(rules):
    state, events = play(engine.deal(rules, seed=7))
    assert len(drawers(events)) == 100 == state.draws
    assert state.pile == ()
    assert [e["type"] for e in events].count("game_over") == 1
    assert events[-1]["type"] == "game_over"


# --- results ------------------------------------------------------------------------


def test_places_share_a_place_on_a_tie():
    assert engine.places_for([4, 4, 2]) == [1, 1, 3]
    assert engine.places_for([1, 9, 9, 9]) == [4, 1, 1, 1]
    assert engine.places_for([30, 20, 20, 10]) == [1, 2, 2, 4]


def test_result_field_cards_belong_to_nobody():
    n = nobles(3)
    pile = [n[0], n[1], n[2], MONKS[0]]  # blue's monk ends the game with 2 cards in the field
    state, events = play(engine.new_game(Rules(players=2), pile))
    expected = {"places": [1, 2], "cards": [2, 0], "winners": [0], "draw": False}
    assert engine.result(state) == expected
    assert events[-1] == {
        "type": "game_over",
        "places": [1, 2],
        "cards": [2, 0],
        "winners": [0],
        "draw": False,
        "field": 2,
    }
    assert engine.result(engine.new_game(Rules(), pile)) is None


# --- refused actions --------------------------------------------------------------


def _snapshot(state):
    return json.dumps(engine.dump(state), sort_keys=True)


@pytest.mark.parametrize(
    "action",
    [{"type": "pass"}, {"type": "draw", "card": 3}, {}, {"kind": "draw"}, "draw", None, ["draw"]],
)
def test_unknown_actions_raise_and_change_nothing(action):
    state = engine.deal(Rules(), seed=3)
    before = _snapshot(state)
    with pytest.raises(InvalidActionError):
        engine.apply(state, 0, action)
    assert _snapshot(state) == before


@pytest.mark.parametrize("seat", [1, 2, 3, -1, 4, None])
def test_out_of_turn_draws_raise_and_change_nothing(seat):
    state = engine.deal(Rules(), seed=3)
    before = _snapshot(state)
    with pytest.raises(NotYourTurnError):
        engine.apply(state, seat, DRAW)
    assert _snapshot(state) == before


def test_drawing_after_the_end_raises_and_changes_nothing():
    state, _ = play(engine.deal(Rules(players=3), seed=5))
    before = _snapshot(state)
    for seat in range(3):
        with pytest.raises(GameOverError):
            engine.apply(state, seat, DRAW)
    assert _snapshot(state) == before


def test_bad_settings_and_piles_are_refused():
    for bad in (
        {"players": 5},
        {"players": 1},
        {"players": "4"},
        {"players": True},
        {"semimaru": "archer"},
        {"emperor": "takes_all"},
        {"princess_extra_draw": "yes"},
        {"colour": "red"},
    ):
        with pytest.raises(InvalidSettingsError):
            Rules.from_settings(bad)
    for pile in ([], [1, 1], [0, 2], [101]):
        with pytest.raises(ValueError):
            engine.new_game(Rules(), pile)


# --- determinism and conservation -------------------------------------------------------


def test_same_seed_same_game():
    first = play(engine.deal(Rules(players=3, semimaru="skip_turn"), seed=42))
    second = play(engine.deal(Rules(players=3, semimaru="skip_turn"), seed=42))
    assert first == second
    other = play(engine.deal(Rules(players=3, semimaru="skip_turn"), seed=43))
    assert other[1] != first[1]


def test_shuffle_uses_every_card_once():
    assert sorted(engine.shuffled_deck(0)) == list(range(1, 101))
    assert engine.shuffled_deck(0) != engine.shuffled_deck(1)


def _cards_everywhere(state) -> Counter:
    return Counter([*state.pile, *state.field, *(n for hand in state.hands for n in hand)])


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: str(r.to_settings()))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_card_is_in_exactly_one_place_after_every_draw(rules, seed):
    state = engine.deal(rules, seed)
    everything = Counter(range(1, 101))
    assert _cards_everywhere(state) == everything
    while state.to_act is not None:
        state, _ = engine.apply(state, state.to_act, DRAW)
        assert _cards_everywhere(state) == everything
        seen = engine.view(state, None)
        assert sum(seen["hand_counts"]) + seen["field_count"] + seen["pile_count"] == 100
    assert state.draws == 100


# --- what leaves the server --------------------------------------------------------


def test_the_view_never_reveals_the_pile_order():
    """Two games that differ only in the order of the remaining pile look the same."""
    for rules in (Rules(), Rules(players=2, emperor="draw_again", princess_extra_draw=True)):
        state, _ = play(engine.deal(rules, seed=11), draws=37)
        reordered = engine.BozuState(**{**state.__dict__, "pile": tuple(reversed(state.pile))})
        assert reordered.pile != state.pile
        for seat in (None, *range(rules.players)):
            shown = engine.view(state, seat)
            assert shown == engine.view(reordered, seat)
            text = json.dumps(shown)
            assert 'pile": [' not in text and "seed" not in text and "rng" not in text


def test_the_view_shows_the_table():
    pile = [*nobles(2), MONKS[0], PRINCESSES[0], *nobles(3, start=2)]
    state, events = play(engine.new_game(Rules(players=2), pile), draws=3)
    shown = engine.view(state, 0)
    assert shown["to_act"] == 1
    assert shown["hands"] == [[], [pile[1]]]
    assert shown["hand_counts"] == [0, 1]
    assert shown["field"] == [pile[0], MONKS[0]]
    assert shown["field_count"] == 2
    assert shown["pile_count"] == 4
    assert shown["monks_left"] == 0 and shown["princesses_left"] == 1
    assert shown["pile_left"]["noble"] == 3
    assert shown["last_card"]["poem"] == MONKS[0] and shown["last_card"]["class"] == "monk"
    assert shown["last_events"] == events[-2:]
    assert shown["result"] is None and shown["over"] is False
    json.dumps(shown)  # JSON-able
    with pytest.raises(ValueError):
        engine.view(state, 2)


def test_a_full_deck_view_counts_the_classes():
    shown = engine.view(engine.deal(Rules(), seed=1), None)
    assert shown["monks_left"] == len(MONKS) == 12
    assert shown["princesses_left"] == len(PRINCESSES) == 21
    assert shown["pile_left"]["semimaru"] == 1
    assert shown["last_card"] is None and shown["last_events"] == []


def test_dump_and_load_round_trip_through_json():
    state, _ = play(engine.deal(Rules(players=3, semimaru="skip_turn"), seed=9), draws=50)
    restored = engine.load(json.loads(json.dumps(engine.dump(state))))
    assert restored == state
    assert play(restored) == play(state)
    with pytest.raises(ValueError):
        engine.load({**engine.dump(state), "field": [*state.field, state.pile[0]]})
