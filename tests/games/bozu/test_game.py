"""Bozu Mekuri through the platform's contract: registry, form, CPU, storage, words."""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

import gamekit
from gamekit import GameOverError, InvalidActionError, NotYourTurnError, SeatSpec
from games.bozu import engine
from games.bozu.forms import BozuSettingsForm
from games.bozu.rules import Rules, all_rules
from games.bozu.text import describe_event
from tests.games.bozu.cards import EMPERORS, MONKS, PRINCESSES, SEMIMARU, nobles

DRAW = {"type": "draw"}


@pytest.fixture
def game():
    return gamekit.registry.get("bozu")


def seats(count: int) -> list[SeatSpec]:
    return [SeatSpec(i, gamekit.SEAT_COLOURS[i], is_cpu=i > 0) for i in range(count)]


def play_through(game, state):
    events = []
    while game.to_act(state):
        (seat,) = game.to_act(state)
        action = game.cpu_policy(game.view(state, seat), seat, "beginner", random.Random(0))
        state, new = game.apply(state, seat, action)
        events += new
    return state, events


def test_registered_with_its_metadata(game):
    assert (game.min_players, game.max_players) == (2, 4)
    assert game.settings_form is BozuSettingsForm
    # The source's three levels, each saying they play alike: drawing is pure luck (issue 27).
    assert [level.key for level in game.cpu_levels] == ["beginner", "intermediate", "advanced"]
    with translation.override("ja"):
        assert str(game.name) == "坊主めくり"
        assert [str(level.label) for level in game.cpu_levels] == ["初級", "中級", "上級"]
        assert all("運" in str(level.description) for level in game.cpu_levels)
    with translation.override("zh-hans"):
        assert str(game.name) == "翻和尚牌"
    with translation.override("en"):
        assert "luck" in str(game.cpu_levels[0].description)


def test_a_whole_game_through_the_contract(game):
    settings = {"players": 3, "semimaru": "others_to_field", "emperor": "draw_again"}
    assert game.player_count(settings) == 3
    state = game.new_state(settings, seats(3), seed=2026)
    assert game.to_act(state) == (0,)
    assert game.legal_actions(state, 0) == [DRAW]
    assert game.legal_actions(state, 1) == []
    assert game.result(state) is None
    state, events = play_through(game, state)
    assert game.to_act(state) == ()
    final = game.result(state)
    assert final is not None and len(final["places"]) == 3
    assert sum(final["cards"]) + len(state.field) == 100
    assert final == {k: v for k, v in events[-1].items() if k not in ("type", "field")}
    assert game.view(state, None)["result"] == final


def test_new_state_checks_settings_and_seats(game):
    with pytest.raises(ValueError):
        game.new_state({"players": 4}, seats(3), seed=1)
    with pytest.raises(ValueError):
        game.new_state({"players": 5}, seats(5), seed=1)


def test_same_seed_settings_and_actions_give_the_same_game(game):
    settings = {"players": 4, "princess_extra_draw": True}
    first = play_through(game, game.new_state(settings, seats(4), seed=77))
    second = play_through(game, game.new_state(settings, seats(4), seed=77))
    assert game.dump_state(first[0]) == game.dump_state(second[0])
    assert first[1] == second[1]


def test_refused_actions_change_nothing(game):
    state = game.new_state({"players": 2}, seats(2), seed=4)
    before = json.dumps(game.dump_state(state))
    with pytest.raises(NotYourTurnError):
        game.apply(state, 1, DRAW)
    with pytest.raises(InvalidActionError):
        game.apply(state, 0, {"type": "resign"})
    assert json.dumps(game.dump_state(state)) == before
    finished, _ = play_through(game, state)
    with pytest.raises(GameOverError):
        game.apply(finished, 0, DRAW)


def test_the_cpu_draws_only_on_its_turn_at_every_level(game):
    state = game.new_state({"players": 2}, seats(2), seed=4)
    for level in ("beginner", "intermediate", "advanced"):
        assert game.cpu_policy(game.view(state, 0), 0, level, random.Random(1)) == DRAW
    with pytest.raises(NotYourTurnError):
        game.cpu_policy(game.view(state, 1), 1, "beginner", random.Random(1))
    with pytest.raises(ValueError):
        game.cpu_policy(game.view(state, 0), 0, "grandmaster", random.Random(1))
    finished, _ = play_through(game, state)
    with pytest.raises(GameOverError):
        game.cpu_policy(game.view(finished, 0), 0, "beginner", random.Random(1))


def test_dump_and_load_round_trip(game):
    state = game.new_state({"players": 4, "semimaru": "skip_turn"}, seats(4), seed=8)
    for _ in range(41):
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, DRAW)
    restored = game.load_state(json.loads(json.dumps(game.dump_state(state))))
    assert restored == state
    assert game.view(restored, 2) == game.view(state, 2)


# --- the settings form ----------------------------------------------------------------


def test_form_defaults_give_the_default_settings(game):
    form = BozuSettingsForm(data={"players": "4", "semimaru": "monk", "emperor": "noble"})
    assert form.is_valid(), form.errors
    assert game.settings_from_form(form.cleaned_data) == {
        "players": 4,
        "semimaru": "monk",
        "emperor": "noble",
        "princess_extra_draw": False,
    }
    initial = BozuSettingsForm()
    assert [initial[name].initial for name in ("players", "semimaru", "emperor")] == [
        4,
        "monk",
        "noble",
    ]
    assert initial["princess_extra_draw"].initial is False


def test_form_accepts_every_rule(game):
    form = BozuSettingsForm(
        data={
            "players": "2",
            "semimaru": "others_to_field",
            "emperor": "draw_again",
            "princess_extra_draw": "on",
        }
    )
    assert form.is_valid(), form.errors
    assert game.settings_from_form(form.cleaned_data) == {
        "players": 2,
        "semimaru": "others_to_field",
        "emperor": "draw_again",
        "princess_extra_draw": True,
    }


@pytest.mark.parametrize(
    ("data", "field", "ja_error"),
    [
        ({"players": "5", "semimaru": "monk", "emperor": "noble"}, "players", "2人・3人・4人"),
        ({"players": "x", "semimaru": "monk", "emperor": "noble"}, "players", "2人・3人・4人"),
        ({"semimaru": "monk", "emperor": "noble"}, "players", "人数を選んで"),
        ({"players": "3", "semimaru": "archer", "emperor": "noble"}, "semimaru", "蝉丸のルール"),
        ({"players": "3", "semimaru": "monk", "emperor": "all"}, "emperor", "天皇・院のルール"),
    ],
)
def test_form_errors_are_clear_and_translated(data, field, ja_error):
    with translation.override("ja"):
        form = BozuSettingsForm(data=data)
        assert not form.is_valid()
        assert list(form.errors) == [field]
        assert ja_error in form.errors[field][0]
    with translation.override("en"):
        assert BozuSettingsForm(data=data).errors[field][0].startswith("Choose")


def test_form_labels_are_translated():
    with translation.override("ja"):
        form = BozuSettingsForm()
        assert str(form["players"].label) == "人数"
        assert str(form["semimaru"].label) == "蝉丸を引いたとき"
        assert "坊主" in str(dict(form.fields["semimaru"].choices)["monk"])
    with translation.override("zh-hans"):
        assert str(BozuSettingsForm()["emperor"].label) == "抽到天皇・院时"


# --- events in words -----------------------------------------------------------------


def test_every_event_has_words_in_each_language(game):
    rules_and_piles = [
        ({"players": 2}, [*nobles(2), MONKS[0], PRINCESSES[0]]),
        ({"players": 2, "semimaru": "skip_turn"}, [SEMIMARU, *nobles(3)]),
        ({"players": 3, "semimaru": "others_to_field"}, [*nobles(3), SEMIMARU]),
        ({"players": 2, "emperor": "draw_again"}, [EMPERORS[0], *nobles(2)]),
        ({"players": 2, "princess_extra_draw": True}, [PRINCESSES[0], *nobles(2)]),
    ]
    kinds = set()
    for settings, pile in rules_and_piles:
        state = engine.new_game(Rules.from_settings(settings), pile)
        state, events = play_through(game, state)
        for event in events:
            kinds.add(event["type"])
            for language in ("ja", "en", "zh-hans"):
                with translation.override(language):
                    text = describe_event(event)
                    assert text
                    if language == "en":  # "Yellow drew …", not "yellow drew …"
                        assert text[0].isupper(), text
    assert kinds == {
        "drew",
        "kept",
        "to_field",
        "took_field",
        "skip_next",
        "others_to_field",
        "extra_draw",
        "turn_skipped",
        "game_over",
    }
    with translation.override("ja"):
        drew_monk = {"type": "drew", "seat": 0, "poem": MONKS[0], "poet": "喜撰法師"}
        text = describe_event({**drew_monk, "class": "monk", "extra": False})
        assert "喜撰法師" in text and "坊主" in text
        moved = describe_event({"type": "to_field", "seat": 1, "cards": 7})
        assert "7枚を場に出しました" in moved
    with translation.override("en"):
        assert describe_event({"type": "to_field", "seat": 1, "cards": 1}).endswith(
            "puts 1 card into the field."
        )


# --- commands ----------------------------------------------------------------------------


def test_bozu_stats_prints_the_figures():
    out = StringIO()
    call_command("bozu_stats", "--games", "3000", "--players", "3", "--seed", "9", stdout=out)
    text = out.getvalue()
    assert "3,000 games, 3 players" in text and "seed 9" in text
    for label in ("sole first", "shared first", "Draw (tie for first)", "Winner's mean cards"):
        assert label in text
    assert text.count("%") >= 3 * 3 + 1


def test_bozu_stats_can_pick_the_first_player_at_random():
    out = StringIO()
    call_command("bozu_stats", "--games", "2000", "--random-first", "--seed", "1", stdout=out)
    assert "random first player" in out.getvalue()


def test_bozu_stats_refuses_bad_options():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("bozu_stats", "--players", "7", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("bozu_stats", "--games", "0", stdout=StringIO())


def test_bozu_figures_writes_a_table(tmp_path):
    path, again, other = (tmp_path / name for name in ("a.json", "b.json", "c.json"))
    out = StringIO()
    call_command("bozu_figures", "--games", "200", "--seed", "3", "--output", path, stdout=out)
    call_command("bozu_figures", "--games", "200", "--seed", "3", "--output", again, stdout=out)
    call_command("bozu_figures", "--games", "200", "--seed", "4", "--output", other, stdout=out)
    assert "48/48" in out.getvalue()
    table = json.loads(path.read_text())
    assert path.read_text() == again.read_text() != other.read_text()  # a function of the seed
    assert table["games"] == 200 and len(table["rows"]) == 48
    assert {json.dumps(r["settings"], sort_keys=True) for r in table["rows"]} == {
        json.dumps(r.to_settings(), sort_keys=True) for r in all_rules()
    }
    for row in [*table["rows"], table["random_first"]]:
        players = row["settings"]["players"]
        # Shares of 200 games: whole games, the sole winners and draws add up to all of them.
        for share in row["sole_first"] + row["shared_first"]:
            assert share * 200 == pytest.approx(round(share * 200), abs=1e-3)
        assert sum(row["sole_first"]) + row["draw_rate"] == pytest.approx(1, abs=1e-5)
        assert all(s <= t for s, t in zip(row["sole_first"], row["shared_first"], strict=True))
        assert 100 / players <= row["winner_mean_cards"] <= 100
    assert table["random_first"]["settings"] == Rules.from_settings({}).to_settings()
    # The progress lines print the rows written.
    first = table["rows"][0]
    printed = " ".join(f"{rate:.2%}" for rate in first["sole_first"])
    assert printed in out.getvalue()
