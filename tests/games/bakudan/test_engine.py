"""The Bakudan engine card by card, on hand-built tables."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gamekit import GameOverError, IllegalActionError, InvalidActionError, NotYourTurnError
from gamekit.events import Private
from games.bakudan import engine
from tests.games.bakudan.tables import build, draw, find, kinds_of, plain, play, types


def place(state, seat, where, position=None):
    action = {"type": "place_bomb", "where": where}
    if position is not None:
        action["position"] = position
    return engine.apply(state, seat, action)


# --- the deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_follows_the_rules(players):
    state = engine.deal(players, 99)
    comp = engine.COMPOSITION[players]
    for hand in state.hands:
        assert len(hand) == 5
        assert kinds_of(state, hand).count("nipper") == 1
        assert all(k in engine.ACTIONS for k in kinds_of(state, hand) if k != "nipper")
    deck = kinds_of(state, state.deck)
    assert deck.count("bomb") == players - 1
    assert deck.count("nipper") == comp.extra_nippers in (1, 2)
    assert deck.count("blank") == comp.blanks
    assert len(state.deck) == comp.deck_size(players)
    every = list(state.kinds.values())
    for kind in engine.ACTIONS:
        assert every.count(kind) == comp.actions[kind] >= 1
    assert len(set(state.kinds)) == len(state.kinds)
    assert state.to_act == 0 and state.owed == 1


def test_the_deal_is_deterministic_from_the_seed():
    assert engine.dump(engine.deal(4, 123)) == engine.dump(engine.deal(4, 123))
    assert engine.deal(4, 123).deck != engine.deal(4, 124).deck


def test_card_ids_say_nothing_about_the_card():
    state = engine.deal(5, 1)
    for card, kind in state.kinds.items():
        assert kind not in card
        assert len(card) == 9 and card.startswith("c")


@pytest.mark.parametrize("players", [1, 6, "3"])
def test_bad_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="2 to 5"):
        engine.deal(players, 1)


def test_importing_the_engine_does_not_import_django():
    code = (
        "import sys; import games.bakudan.engine, games.bakudan.cpu, games.bakudan.number, "
        "games.bakudan.sim; print('django' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": "platform:."},
    )
    assert out.stdout.strip() == "False"


# --- drawing -------------------------------------------------------------------------------


def test_a_safe_draw_goes_to_the_hand_and_ends_the_turn():
    state = build([["peek"], ["peek"]], ["blank", "bomb"])
    card = state.deck[0]
    after, events = draw(state, 0)
    assert card in after.hands[0]
    assert after.to_act == 1 and after.owed == 1
    private = events[0]
    assert isinstance(private, Private) and private.only == (0,)
    assert private.event["card"] == {"id": card, "kind": "blank"}
    assert "card" not in private.public
    assert state.deck[0] == card  # the state given was not changed


def test_a_bomb_without_a_nipper_puts_the_drawer_out_and_hand_to_the_discard():
    state = build([["peek", "blank"], ["dodge"], ["peek"]], ["bomb", "blank", "bomb"])
    hand = list(state.hands[0])
    bomb = state.deck[0]
    after, events = draw(state, 0)
    assert not after.alive[0] and after.hands[0] == []
    assert after.discard == [*hand, bomb]
    assert after.places[0] == 3
    assert types(events) == ["drew_bomb", "eliminated", "turn"]
    assert after.to_act == 1
    assert after.bombs_in_deck() == after.alive_count() - 1


def test_a_bomb_with_a_nipper_spends_it_and_the_drawer_places_the_bomb():
    state = build([["nipper", "nipper"], ["peek"]], ["bomb", "blank", "blank"])
    after, events = draw(state, 0)
    assert kinds_of(after, after.hands[0]) == ["nipper"]  # one spent, automatically
    assert after.kinds[after.discard[-1]] == "nipper"
    assert after.pending is not None and after.to_act == 0
    assert plain(events) == [{"type": "drew_bomb", "seat": 0, "from": "top", "nipper": True}]
    assert engine.legal_actions(after, 0)[0]["type"] == "place_bomb"
    with pytest.raises(IllegalActionError):
        draw(after, 0)


@pytest.mark.parametrize(
    ("where", "position", "expected"),
    [("top", None, 0), ("bottom", None, 2), ("position", 0, 0), ("position", 1, 1),
     ("position", 2, 2)],
)  # fmt: skip
def test_the_bomb_goes_back_where_the_drawer_chose(where, position, expected):
    state = build([["nipper"], ["peek"]], ["bomb", "blank", "blank"])
    bomb = state.deck[0]
    state, _ = draw(state, 0)
    after, events = place(state, 0, where, position)
    assert after.deck.index(bomb) == expected and len(after.deck) == 3
    assert after.notes[0] == {expected: bomb}
    assert after.pending is None and after.to_act == 1
    private = events[0]
    assert private.only == (0,)
    assert private.event == {
        "type": "bomb_placed",
        "seat": 0,
        "where": where,
        "position": expected,
    }
    assert private.public == {"type": "bomb_placed", "seat": 0}


def test_a_random_placement_is_drawn_from_the_seed_and_told_to_the_placer():
    positions = set()
    for seed in range(40):
        state = build([["nipper"], ["peek"]], ["bomb", "blank", "blank", "blank"], seed=seed)
        bomb = state.deck[0]
        state, _ = draw(state, 0)
        after, events = place(state, 0, "random")
        position = after.deck.index(bomb)
        positions.add(position)
        assert after.notes[0] == {position: bomb}
        assert events[0].event["position"] == position
        again, _ = place(state, 0, "random")
        assert again.deck == after.deck  # same seed and state: same position
    assert positions == {0, 1, 2, 3}


@pytest.mark.parametrize("position", [-1, 4, 99])
def test_a_position_off_the_deck_is_refused(position):
    state = build([["nipper"], ["peek"]], ["bomb", "blank", "blank", "blank"])
    state, _ = draw(state, 0)
    with pytest.raises(IllegalActionError, match="0 \\(top\\) to 3"):
        place(state, 0, "position", position)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place_bomb", "where": "middle"},
        {"type": "place_bomb", "where": "position"},
        {"type": "place_bomb", "where": "position", "position": "2"},
        {"type": "place_bomb", "where": "position", "position": True},
    ],
)
def test_malformed_placements_are_invalid(action):
    state = build([["nipper"], ["peek"]], ["bomb", "blank"])
    state, _ = draw(state, 0)
    with pytest.raises(InvalidActionError):
        engine.apply(state, 0, action)


def test_placing_without_a_bomb_is_illegal():
    state = build([["peek"], ["peek"]], ["blank", "bomb"])
    with pytest.raises(IllegalActionError, match="no bomb"):
        place(state, 0, "top")


# --- the action cards -----------------------------------------------------------------------


def test_peek_notes_the_top_three_and_does_not_end_the_turn():
    state = build([["peek"], ["peek"]], ["blank", "bomb", "dodge", "push"])
    after, events = play(state, 0, "peek")
    assert after.notes[0] == {0: state.deck[0], 1: state.deck[1], 2: state.deck[2]}
    assert after.notes[1] == {}
    assert after.to_act == 0 and after.owed == 1
    private = events[1]
    assert private.only == (0,) and [c["card"]["kind"] for c in private.event["cards"]] == [
        "blank",
        "bomb",
        "dodge",
    ]
    assert private.public == {"type": "peeked", "seat": 0, "count": 3}


def test_peek_on_a_short_deck_sees_what_there_is():
    state = build([["peek"], ["peek"]], ["bomb"])
    after, _ = play(state, 0, "peek")
    assert after.notes[0] == {0: state.deck[0]}


def test_dodge_ends_the_turn_without_drawing():
    state = build([["dodge"], ["peek"]], ["bomb", "blank"])
    after, events = play(state, 0, "dodge")
    assert after.deck == state.deck and after.hands[0] == []
    assert after.to_act == 1 and types(events) == ["played", "turn"]


def test_bottom_draw_takes_the_bottom_card():
    state = build([["bottom"], ["peek"]], ["bomb", "blank", "shield"])
    after, events = play(state, 0, "bottom")
    assert kinds_of(after, after.hands[0]) == ["shield"]
    assert kinds_of(after, after.deck) == ["bomb", "blank"]
    assert plain(events)[1]["from"] == "bottom" and after.to_act == 1


def test_a_bomb_at_the_bottom_is_a_bomb_drawn():
    state = build([["bottom"], ["peek"], ["peek"]], ["blank", "bomb", "bomb"])
    after, _ = play(state, 0, "bottom")
    assert not after.alive[0]


def test_shuffle_reorders_the_deck_and_wipes_every_note():
    deck = ["blank", "bomb", "dodge", "push", "peek", "snatch", "shield", "blank"]
    state = build([["shuffle"], ["peek"]], deck)
    state.notes = [{0: state.deck[0]}, {1: state.deck[1], 5: state.deck[5]}]
    after, events = play(state, 0, "shuffle")
    assert sorted(after.deck) == sorted(state.deck) and after.deck != state.deck
    assert after.notes == [{}, {}]
    assert after.to_act == 0
    assert types(events) == ["played", "shuffled"]


def test_snatch_takes_a_random_card_from_the_chosen_opponent():
    taken = set()
    for seed in range(30):
        state = build([["snatch"], ["peek"], ["dodge", "push", "blank"]], ["bomb"] * 2, seed=seed)
        after, events = play(state, 0, "snatch", target=2)
        (card,) = after.hands[0]
        taken.add(after.kinds[card])
        assert card not in after.hands[2] and len(after.hands[2]) == 2
        private = events[1]
        assert private.only == (0, 2)
        assert private.event["card"] == {"id": card, "kind": after.kinds[card]}
        assert private.public == {"type": "snatched", "seat": 0, "target": 2}
        assert after.to_act == 0
    assert taken == {"dodge", "push", "blank"}


@pytest.mark.parametrize("target", [0, 3, None])
def test_snatch_needs_another_player_in_the_game(target):
    state = build([["snatch"], ["peek"], ["peek"]], ["bomb", "bomb"])
    error = InvalidActionError if target is None else IllegalActionError
    with pytest.raises(error):
        play(state, 0, "snatch", **({} if target is None else {"target": target}))


def test_snatch_from_an_empty_hand_or_a_player_out_is_illegal():
    state = build([["snatch"], [], ["peek"]], ["bomb", "bomb"])
    with pytest.raises(IllegalActionError):
        play(state, 0, "snatch", target=1)
    state.alive[2] = False
    with pytest.raises(IllegalActionError):
        play(state, 0, "snatch", target=2)


def test_a_card_that_takes_no_target_refuses_one():
    state = build([["peek"], ["peek"]], ["bomb"])
    with pytest.raises(InvalidActionError):
        play(state, 0, "peek", target=1)


@pytest.mark.parametrize("kind", ["blank", "nipper"])
def test_blanks_and_nippers_cannot_be_played(kind):
    state = build([[kind], ["peek"]], ["bomb"])
    with pytest.raises(IllegalActionError, match="cannot be played"):
        play(state, 0, kind)
    assert all(m["type"] == "draw" for m in engine.legal_actions(state, 0))


def test_a_card_not_in_the_hand_cannot_be_played():
    state = build([["peek"], ["dodge"]], ["bomb"])
    with pytest.raises(IllegalActionError, match="not in your hand"):
        engine.apply(state, 0, {"type": "play", "card": find(state, 1, "dodge")})
    with pytest.raises(IllegalActionError):
        engine.apply(state, 0, {"type": "play", "card": "c00000000"})


# --- push and shield ----------------------------------------------------------------------


def test_push_makes_the_next_player_owe_two():
    state = build([["push"], ["peek"], ["peek"]], ["blank"] * 4 + ["bomb", "bomb"])
    after, events = play(state, 0, "push")
    assert after.to_act == 1 and after.owed == 2
    assert plain(events)[1] == {"type": "pushed", "seat": 0, "target": 1}
    after, _ = draw(after, 1)
    assert after.to_act == 1 and after.owed == 1
    after, _ = draw(after, 1)
    assert after.to_act == 2 and after.owed == 1


def test_pushes_do_not_stack():
    state = build([["push"], ["push"], ["peek"]], ["blank"] * 4 + ["bomb", "bomb"])
    state, _ = play(state, 0, "push")
    after, _ = play(state, 1, "push")  # pushed player pushes: passes on 2, not 4
    assert after.to_act == 2 and after.owed == 2


def test_a_push_ends_every_draw_the_pusher_owes():
    state = build([["peek"], ["push", "dodge"], ["peek"]], ["blank"] * 4 + ["bomb"] * 2)
    state.to_act, state.owed = 1, 2
    state, _ = play(state, 1, "dodge")
    assert state.to_act == 1 and state.owed == 1
    after, _ = play(state, 1, "push")
    assert after.to_act == 2 and after.owed == 2


def test_a_shield_blocks_the_next_push_and_is_used_up():
    state = build([["push", "push"], ["shield"]], ["blank"] * 6 + ["bomb"])
    state.to_act = 1
    state, _ = play(state, 1, "shield")
    assert state.shields[1] is not None and state.hands[1] == []
    state, _ = draw(state, 1)
    after, events = play(state, 0, "push")
    assert after.to_act == 1 and after.owed == 1  # blocked: a normal turn
    assert after.shields[1] is None
    assert after.kinds[after.discard[-1]] == "shield"
    assert plain(events)[1] == {"type": "shield_blocked", "seat": 1, "by": 0, "kind": "push"}
    after, _ = draw(after, 1)
    after, _ = play(after, 0, "push")  # the shield is gone: this one lands
    assert after.owed == 2


def test_a_shield_blocks_the_next_snatch_and_is_used_up():
    state = build([["snatch", "snatch"], ["blank", "nipper"]], ["blank"] * 4 + ["bomb"])
    state.shields[1] = "shield-x"
    state.kinds = {**state.kinds, "shield-x": "shield"}
    after, events = play(state, 0, "snatch", target=1)
    assert len(after.hands[1]) == 2 and len(after.hands[0]) == 1
    assert after.shields[1] is None
    assert plain(events)[1]["type"] == "shield_blocked"
    after, _ = play(after, 0, "snatch", target=1)
    assert len(after.hands[1]) == 1 and len(after.hands[0]) == 1


def test_a_shield_with_an_empty_hand_can_still_be_snatched_away():
    state = build([["snatch"], []], ["blank", "bomb"])
    state.shields[1] = "shield-x"
    state.kinds = {**state.kinds, "shield-x": "shield"}
    after, _ = play(state, 0, "snatch", target=1)
    assert after.shields[1] is None


def test_only_one_shield_up_at_a_time():
    state = build([["shield", "shield"], ["peek"]], ["blank", "bomb"])
    state, _ = play(state, 0, "shield")
    assert not [m for m in engine.legal_actions(state, 0) if m["type"] == "play"]
    with pytest.raises(IllegalActionError, match="already"):
        play(state, 0, "shield")


def test_a_push_on_a_player_out_skips_to_the_next_one_in():
    state = build([["push"], ["peek"], ["peek"]], ["blank"] * 3 + ["bomb"])
    state.alive[1] = False
    after, _ = play(state, 0, "push")
    assert after.to_act == 2 and after.owed == 2


def test_a_pushed_player_who_goes_out_leaves_no_debt():
    state = build([["push"], ["peek"], ["peek"]], ["bomb", "blank", "bomb"])
    state, _ = play(state, 0, "push")
    after, _ = draw(state, 1)
    assert not after.alive[1]
    assert after.to_act == 2 and after.owed == 1


# --- turns, elimination, the end ------------------------------------------------------------


def test_not_your_turn_and_game_over_are_refused():
    state = build([["peek"], ["peek"]], ["bomb"])
    with pytest.raises(NotYourTurnError):
        draw(state, 1)
    over, events = draw(state, 0)
    assert over.over and over.winner == 1 and over.places == [2, 1]
    assert types(events)[-1] == "won" and over.to_act is None
    assert engine.result(over)["winner"] == 1
    with pytest.raises(GameOverError):
        draw(over, 1)
    assert engine.legal_actions(over, 1) == []


def test_the_last_one_standing_wins_and_places_count_down():
    state = build([[], [], []], ["bomb", "bomb", "blank"])
    state, _ = draw(state, 0)
    assert state.places == [3, None, None] and not state.over
    state, _ = draw(state, 1)
    assert state.over and state.winner == 2 and state.places == [3, 2, 1]
    assert engine.result(state)["out_order"] == [0, 1]


@pytest.mark.parametrize(
    "action", [None, [], {"type": "jump"}, {"type": "play"}, {"type": "play", "card": 3}]
)
def test_malformed_actions_are_invalid(action):
    state = build([["peek"], ["peek"]], ["bomb"])
    with pytest.raises(InvalidActionError):
        engine.apply(state, 0, action)


# --- notes ---------------------------------------------------------------------------------


def test_notes_shift_up_when_the_top_card_is_drawn():
    state = build([["peek"], ["peek"]], ["blank", "blank", "dodge", "push", "bomb"])
    state, _ = play(state, 0, "peek")
    deck = state.deck
    state, _ = draw(state, 0)
    assert state.notes[0] == {0: deck[1], 1: deck[2]}
    state, _ = play(state, 1, "peek")
    state, _ = draw(state, 1)
    assert state.notes[0] == {0: deck[2]}
    assert state.notes[1] == {0: deck[2], 1: deck[3]}


def test_a_bottom_draw_removes_only_the_note_on_the_bottom_card():
    state = build([["bottom"], ["peek"]], ["blank", "dodge", "push"])
    state.notes[1] = {0: state.deck[0], 2: state.deck[2]}
    after, _ = play(state, 0, "bottom")
    assert after.notes[1] == {0: state.deck[0]}


def test_putting_a_bomb_back_wipes_everyone_elses_notes_and_shifts_the_placers():
    deck = ["bomb", "blank", "dodge", "push", "peek"]
    state = build([["nipper"], ["peek"], ["peek"]], [*deck, "bomb"])
    bomb = state.deck[0]
    state.notes = [{1: state.deck[1], 3: state.deck[3]}, {2: state.deck[2]}, {0: bomb}]
    state, _ = draw(state, 0)
    # after the draw everything moved up: seat 0 knows positions 0 and 2
    assert state.notes[0] == {0: state.deck[0], 2: state.deck[2]}
    after, _ = place(state, 0, "position", 1)
    assert after.notes[0] == {0: state.deck[0], 1: bomb, 3: state.deck[2]}
    assert after.deck[3] == state.deck[2]
    assert after.notes[1] == {} and after.notes[2] == {}


# --- a player who leaves ---------------------------------------------------------------------


def test_a_player_who_leaves_is_out_and_takes_a_bomb_with_them():
    state = build([["peek"], ["dodge", "nipper"], ["peek"]], ["blank", "bomb", "blank", "bomb"])
    state.notes[0] = {0: state.deck[0]}
    after, events = engine.remove_seat(state, 1)
    assert not after.alive[1] and after.hands[1] == []
    assert after.bombs_in_deck() == 1 == after.alive_count() - 1
    assert after.notes == [{}, {}, {}]
    assert types(events) == ["bomb_removed", "eliminated"]
    assert after.to_act == 0 and after.places[1] == 3


def test_a_leaver_whose_turn_it_was_passes_the_turn_on():
    state = build([["peek"], ["peek"], ["peek"]], ["blank", "bomb", "bomb"], to_act=1, owed=2)
    after, _ = engine.remove_seat(state, 1)
    assert after.to_act == 2 and after.owed == 1


def test_a_leaver_holding_a_bomb_to_place_takes_that_bomb():
    state = build([["peek"], ["nipper"], ["peek"]], ["bomb", "blank", "bomb"], to_act=1)
    state, _ = draw(state, 1)
    after, _ = engine.remove_seat(state, 1)
    assert after.pending is None and after.bombs_in_deck() == 1
    assert after.to_act == 2


def test_the_last_two_when_one_leaves_the_other_wins():
    state = build([["peek"], ["nipper"]], ["bomb", "blank"])
    state.to_act = 1
    state, _ = draw(state, 1)  # seat 1 holds the only bomb, to place
    after, events = engine.remove_seat(state, 0)
    assert after.over and after.winner == 1 and types(events)[-1] == "won"
    again, none = engine.remove_seat(after, 1)
    assert none == [] and again is after
