"""Bakudan through the platform's contract: registry, settings form, game numbers and replay,
the vs-CPU fast-forward, events in words, the stats command."""

from __future__ import annotations

import gettext
import json
import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

import gamekit
from gamekit import LeavePolicy, Mode, SeatSpec
from gamekit.events import encode, for_viewer
from games.bakudan import engine
from games.bakudan.forms import BakudanSettingsForm, initial_from_number
from games.bakudan.number import GameNumberError, deal_seed, decode
from games.bakudan.number import encode as number_for

LOCALE = Path(__file__).resolve().parents[3] / "games" / "bakudan" / "locale"


@pytest.fixture
def game():
    return gamekit.registry.get("bakudan")


def cpu_table(players: int, level: str | None) -> list[SeatSpec]:
    return [
        SeatSpec(i, gamekit.SEAT_COLOURS[i], is_cpu=level is not None and i > 0, cpu_level=level)
        for i in range(players)
    ]


def test_the_plugin_declares_the_contract(game):
    assert game.slug == "bakudan" and (game.min_players, game.max_players) == (2, 5)
    assert set(game.modes) == {Mode.CPU, Mode.HOTSEAT, Mode.FRIEND}
    assert [level.key for level in game.cpu_levels] == ["reckless", "calm", "ruthless"]
    assert all(str(level.label) and str(level.description) for level in game.cpu_levels)
    assert game.private_hands is True and game.on_leave == LeavePolicy.OUT
    assert game.seed_bits == 20
    assert game.telemetry_settings_buckets({"players": 3, "number": "x"}) == {
        "players": "3",
        "numbered": "on",
    }


def test_the_view_says_who_is_human_and_shows_the_number_only_at_the_end(game):
    state = game.new_state({"players": 3}, cpu_table(3, "ruthless"), 4321)
    view = game.view(state, 0)
    assert [s["human"] for s in view["seats"]] == [True, False, False]
    assert [s["cpu"] for s in view["seats"]] == [None, "ruthless", "ruthless"]
    assert state.number == number_for(3, "ruthless", 4321)
    # The number fixes the deal: while the game runs no view carries it.
    for seat in (0, 1, 2, None):
        text = json.dumps(game.view(state, seat))
        assert game.view(state, seat)["number"] is None
        assert state.number not in text and state.number.replace("-", "") not in text
    state, _ = game.remove_seat(state, 0)  # the person leaves: the CPUs play it out
    assert state.over
    for seat in (0, 1, None):
        assert game.view(state, seat)["number"] == state.number
    assert game.result(state)["number"] == state.number
    people = game.new_state({"players": 3}, cpu_table(3, None), 4321)
    assert people.number == number_for(3, None, 4321)
    assert game.view(people, None)["hand"] is None


def test_the_deal_comes_from_a_stretched_seed(game):
    """The deal's seed is the number's seed through scrypt: trying every number against a
    hand takes a day of computing, not a second. Same number, same deal."""
    assert deal_seed(4321) == deal_seed(4321) != deal_seed(4322)
    assert deal_seed(4321) >= 2**32  # a 64-bit seed, not the number's 20 bits
    state = game.new_state({"players": 3}, cpu_table(3, None), 4321)
    assert engine.dump(state)["deck"] == engine.deal(3, deal_seed(4321)).deck
    assert engine.deal(3, 4321).deck != state.deck
    with pytest.raises(ValueError):
        deal_seed(2**20)


def test_seeds_come_from_the_number_and_rematches_deal_anew(game):
    number = number_for(4, "calm", 98765)
    settings = {"players": 4, "number": number}
    assert game.seed_for(settings) == 98765
    assert game.seed_for({"players": 4}) is None
    assert game.rematch_settings(settings) == {"players": 4}
    state = game.new_state(settings, cpu_table(4, "calm"), game.seed_for(settings))
    assert state.number == number


def test_a_seed_too_big_for_a_number_is_folded_so_the_number_still_replays(game):
    state = game.new_state({"players": 2}, cpu_table(2, None), 2**40 + 5)
    again = game.new_state({"players": 2}, cpu_table(2, None), decode(state.number).seed)
    assert engine.dump(state) == engine.dump(again)


# --- replaying a game number -----------------------------------------------------------------


def play_match(game, number: str, human_moves: list | None = None):
    """Play a vs-CPU match the way the platform does: CPU rng from (seed, seq, seat), the CPU
    handed only its view. Human moves are random legal ones, or the given ones."""
    table = decode(number)
    settings = {"players": table.players, "number": number}
    seed = game.seed_for(settings)
    state = game.new_state(settings, cpu_table(table.players, table.cpu), seed)
    seq = 1  # the "start" row
    log, humans = [], []
    pick = random.Random(number)
    moves = iter(human_moves) if human_moves is not None else None
    while game.to_act(state):
        (seat,) = game.to_act(state)
        if seat == 0:
            legal = game.legal_actions(state, 0)
            action = next(moves) if moves else pick.choice(legal)
            humans.append(action)
        else:
            rng = random.Random(f"{seed}:{seq}:{seat}")
            action = game.cpu_policy(game.view(state, seat), seat, table.cpu, rng)
        state, events = game.apply(state, seat, action)
        seq += 1
        log.append((seat, action, encode(events)))
    return state, log, humans


@pytest.mark.parametrize("level", ["reckless", "calm", "ruthless"])
def test_the_same_number_and_moves_replay_the_same_game(game, level):
    for seed in (1, 777, 65_432):
        number = number_for(4, level, seed)
        first, log, humans = play_match(game, number)
        again, relog, _ = play_match(game, number, humans)
        assert relog == log  # every event and every CPU move
        assert engine.dump(again) == engine.dump(first)
        assert sum(1 for seat, _, _ in log if seat != 0) > 0
    _other, other_log, _ = play_match(game, number_for(4, level, 2))
    assert other_log != log


def test_when_the_person_is_out_the_cpus_play_to_the_end(game):
    forwarded = 0
    for seed in range(30):
        number = number_for(4, "calm", seed)
        state, log, _ = play_match(game, number)
        result = game.result(state)
        assert result is not None and sorted(result["places"]) == [1, 2, 3, 4]
        if result["winner"] == 0:
            assert not result["fast_forward"]
            continue
        if state.places[0] == 2:  # the person was the last to go out: nothing to play on
            continue
        forwarded += 1
        assert result["fast_forward"] and state.fast_forward
        _seat, _action, events = log[-1]
        kinds = [e["type"] for e in events]
        assert "fast_forward" in kinds and kinds[-1] == "won"
        assert events[-1]["seat"] == result["winner"] != 0
        assert game.view(state, 0)["over"] and game.to_act(state) == ()
    assert forwarded >= 5


def test_a_person_leaving_a_cpu_game_fast_forwards_it(game):
    state = game.new_state({"players": 3}, cpu_table(3, "reckless"), 55)
    state, events = game.remove_seat(state, 0)
    assert state.over and state.winner in (1, 2) and state.places[0] == 3
    assert [e["type"] for e in events][:3] == ["bomb_removed", "eliminated", "turn"]
    assert "fast_forward" in [e["type"] for e in events]


def test_a_hot_seat_game_is_never_fast_forwarded(game):
    state = game.new_state({"players": 3}, cpu_table(3, None), 55)
    state, _ = game.remove_seat(state, 0)
    assert not state.over and state.to_act == 1


def test_states_survive_the_platform_storage(game):
    state = game.new_state({"players": 5}, cpu_table(5, "calm"), 9)
    data = json.loads(json.dumps(game.dump_state(state)))
    assert engine.dump(game.load_state(data)) == engine.dump(state)


# --- the settings form -------------------------------------------------------------------------


def form(**data):
    return BakudanSettingsForm(data={k: str(v) for k, v in data.items()})


def test_the_form_takes_players_and_an_optional_number(game):
    f = form(players=3, play_mode="hotseat")
    assert f.is_valid(), f.errors
    assert game.settings_from_form(f.cleaned_data) == {"players": 3}
    number = number_for(3, "calm", 1234)
    f = form(players=3, number=number.lower().replace("-", ""), play_mode="cpu", cpu_level="calm")
    assert f.is_valid(), f.errors
    assert game.settings_from_form(f.cleaned_data) == {"players": 3, "number": number}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"players": 3, "number": "A3N-1K7"}, "5 characters, like A3N-1K, or 7"),
        ({"players": 3, "number": "A9N-1K7Q"}, "number of players, 2 to 5"),
        ({"players": 3, "number": "A3Z-1K7Q"}, "N, M or H"),
        ({"players": 3, "number": "A3N-UK7Q"}, "no U"),
        ({"players": 4, "number": number_for(3, "calm", 5), "play_mode": "cpu",
          "cpu_level": "calm"}, "for 3 players, not 4"),
        ({"players": 3, "number": number_for(3, "calm", 5), "play_mode": "cpu",
          "cpu_level": "ruthless"}, "against the calm CPU"),
        ({"players": 3, "number": number_for(3, "calm", 5), "play_mode": "cpu"},
         "against the calm CPU"),  # no level posted: the platform's default, reckless
        ({"players": 3, "number": number_for(3, None, 5), "play_mode": "cpu",
          "cpu_level": "calm"}, "people only"),
        ({"players": 3, "number": number_for(3, "ruthless", 5), "play_mode": "friend"},
         "against the ruthless CPU"),
    ],
)  # fmt: skip
def test_a_bad_or_mismatched_number_gets_a_clear_error(data, words):
    with translation.override("en"):
        f = form(**data)
        assert not f.is_valid()
        assert words in " ".join(f.errors["number"]), f.errors


def test_a_mistyped_number_is_caught_and_named():
    number = number_for(3, "calm", 4242)
    typo = number[:-2] + ("0" if number[-2] != "0" else "1") + number[-1]
    with translation.override("en"):
        f = form(players=3, number=typo, play_mode="cpu", cpu_level="calm")
        assert not f.is_valid()
        assert "mistyped" in f.errors["number"][0]
    with translation.override("ja"):
        f = form(players=3, number=typo, play_mode="cpu", cpu_level="calm")
        assert not f.is_valid()
        assert "打ち間違" in f.errors["number"][0]


# --- events in words -------------------------------------------------------------------------


def every_event(game) -> list[dict]:
    """Events of many games as seen by a seat in `only` and by everyone else."""
    seen = []
    for seed in range(12):
        state = game.new_state({"players": 4}, cpu_table(4, "reckless"), seed)
        rng = random.Random(seed)
        while game.to_act(state):
            (seat,) = game.to_act(state)
            if rng.random() < 0.02:
                state, events = game.remove_seat(state, seat)
            else:
                action = rng.choice(game.legal_actions(state, seat))
                state, events = game.apply(state, seat, action)
            stored = encode(events)
            seen += for_viewer(stored, seat) + for_viewer(stored, None)
    return seen


def test_every_event_is_described_in_every_language(game):
    events = every_event(game)
    kinds = {e["type"] for e in events}
    assert kinds >= {
        "played", "peeked", "shuffled", "snatched", "shield_blocked", "pushed", "drew_card",
        "drew_bomb", "bomb_placed", "eliminated", "won", "turn", "fast_forward",
    }  # fmt: skip
    texts = {}
    for language in ("ja", "en", "zh-hans"):
        with translation.override(language):
            texts[language] = [str(t) for t in game.describe_events(events)]
        assert len(texts[language]) == len(events)
        assert all(t and "%(" not in t for t in texts[language])
    assert texts["ja"] != texts["en"] != texts["zh-hans"]
    with translation.override("ja"):
        assert game.describe_events([{"type": "drew_card", "seat": 1, "from": "top"}]) == [
            "青がカードを引きました。"
        ]


@pytest.mark.parametrize("language", ["ja", "en", "zh_Hans"])
def test_every_string_is_translated_and_compiled(language):
    po = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert "#, fuzzy" not in po
    assert 'msgstr ""\n\n' not in po.split("\n\n", 1)[1]  # no empty translation after the header
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog
    compiled = {k[0] if isinstance(k, tuple) else k for k in catalog}
    assert "Bakudan Mekuri" in compiled and "%(who)s draws a card." in compiled
    assert po.count("\nmsgid ") == len(compiled)  # every entry compiled (the header is "")


# --- the stats command ---------------------------------------------------------------------------


def test_the_stats_command_runs_small():
    out = StringIO()
    call_command("bakudan_stats", games=30, players=[2, 5], seed=3, stdout=out)
    text = out.getvalue()
    assert "2 players" in text and "5 players" in text and "4 players" not in text
    for level in ("reckless", "calm", "ruthless"):
        assert level in text
    assert "turn-ends per game" in text and "seed 3" in text


def test_the_form_offers_the_personalities_and_checks_the_posted_one():
    f = form(players=3, play_mode="cpu", cpu_level="ruthless")
    assert f.is_valid(), f.errors
    assert [key for key, _label in f.fields["cpu_level"].choices] == [
        "reckless",
        "calm",
        "ruthless",
    ]
    with translation.override("en"):
        f = form(players=3, play_mode="cpu", cpu_level="sleepy")
        assert not f.is_valid() and "three CPU personalities" in f.errors["cpu_level"][0]


def test_a_game_link_pre_fills_a_menu_that_agrees_with_the_number(game):
    number = number_for(5, "ruthless", 8080)
    initial = initial_from_number(number.lower())
    assert initial == {
        "players": 5,
        "cpu_level": "ruthless",
        "play_mode": "cpu",
        "number": number,
    }
    assert form(**initial).is_valid()
    people = initial_from_number(number_for(2, None, 1))
    assert people["play_mode"] == "hotseat" and form(**people).is_valid()
    with pytest.raises(GameNumberError):
        initial_from_number("nonsense")


def test_every_engine_refusal_has_words(game):
    assert set(game.error_messages) == set(engine.ERROR_CODES)
    with translation.override("ja"):
        assert str(game.error_messages["card_not_in_hand"]) == "そのカードは手札にありません。"


def test_only_the_declared_keys_of_an_action_reach_the_engine_and_the_log(game):
    kept = game.clean_action({"type": "play", "card": "c0", "target": 1, "note": "x" * 400})
    assert kept == {"type": "play", "card": "c0", "target": 1}
    assert game.clean_action({"type": "draw", "extra": [1, 2]}) == {"type": "draw"}
    with pytest.raises(gamekit.InvalidActionError):
        game.clean_action({"type": "peek_at_the_deck"})
