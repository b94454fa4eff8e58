"""The karuta plugin through the gamekit contract, its settings form and its ladder command."""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

import gamekit
from gamekit import SeatSpec
from games.karuta import engine
from games.karuta.forms import KarutaSettingsForm


@pytest.fixture
def game():
    return gamekit.registry.get("karuta")


def seats(*cpu_levels):
    return [
        SeatSpec(i, colour, is_cpu=level is not None, cpu_level=level)
        for i, (colour, level) in enumerate(
            zip(("red", "blue", "green", "yellow"), cpu_levels, strict=False)
        )
    ]


def test_metadata_and_levels(game):
    assert gamekit.timed(game) is game
    assert game.min_players == 1 and game.max_players == 8  # genpei 4 v 4
    assert [lv.key for lv in game.cpu_levels] == ["nyumon", "yowai", "futsu", "tsuyoi", "meijin"]
    with translation.override("ja"):
        assert [str(lv.label) for lv in game.cpu_levels] == [
            "入門",
            "よわい",
            "ふつう",
            "つよい",
            "名人",
        ]
    with translation.override("en"):
        assert str(game.cpu_levels[-1].label) == "Master"
    with translation.override("zh-hans"):
        assert str(game.cpu_levels[0].label) != "Novice"


def test_a_whole_game_against_a_cpu_through_the_contract(game):
    settings = {"mode": "competitive", "memorise_seconds": 60, "cpu_level": "tsuyoi"}
    assert game.player_count(settings) == 2
    state = game.new_state(settings, seats(None, "tsuyoi"), seed=8)
    rng = random.Random(8)
    human_rng = random.Random(9)
    for _ in range(5000):
        waiting = game.to_act(state)
        if not waiting:
            break
        seat = waiting[0]
        if seat == 1:
            action = game.cpu_policy(game.view(state, 1), 1, "tsuyoi", rng)
        else:
            view = game.view(state, 0)
            legal = game.legal_actions(state, 0)
            assert legal
            if view["phase"] == "reading" and view["reading"]["poem"] in {
                c for rows in view["sides"] for row in rows for c in row
            }:
                decided = view["reading"]["decided"]
                action = {"type": "touch", "card": view["reading"]["poem"],
                          "t": decided + human_rng.randint(200, 900)}  # fmt: skip
            else:
                action = dict(legal[0]) if legal[0]["type"] != "touch" else {"type": "pass"}
        state, events = game.apply(state, seat, action)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        json.dumps(events)
        stored = json.loads(json.dumps(game.dump_state(state)))
        assert game.load_state(stored) == state
    result = game.result(state)
    assert result is not None and sorted(result["places"]) == [1, 2]


def test_views_are_json_and_spectators_see_no_secrets(game):
    settings = {"mode": "chirashi", "players": 3, "memorise_seconds": 0, "show_kimariji": True}
    state = game.new_state(settings, seats(None, "futsu", "meijin"), seed=3)
    # The same game with the hidden parts changed: the order of the poems still to come
    # (after the one being read), the seed and the RNG counter.
    other = engine.clone(state)
    rest = other["queue"][1:]
    random.Random(9).shuffle(rest)
    other["queue"][1:] = rest
    other["seed"], other["rng_n"] = 4, state["rng_n"] + 5
    assert other["queue"] != state["queue"]
    for seat in (0, 1, 2, None):
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert game.view(other, seat) == view  # nothing hidden shows through
        assert len(view["kimariji"]) == 100
    assert game.player_count({"mode": "chirashi", "players": 3}) == 3
    assert game.player_count({"mode": "solo"}) == 1


def test_load_state_refuses_foreign_data(game):
    with pytest.raises(gamekit.GameError):
        game.load_state({"board": []})


def form(**data):
    base = {"mode": "competitive", "cpu_level": "futsu", "pace": "standard",
            "memorise_seconds": "900", "otetsuki_penalty": "sit_out", "speech": "on"}  # fmt: skip
    return KarutaSettingsForm(data={**base, **data})


def test_the_form_builds_engine_settings(game):
    f = form(mode="chirashi", players="4", poem_set="2", show_kimariji="on", pace="fast",
             lower_verse_twice="on")  # fmt: skip
    assert f.is_valid(), f.errors
    settings = game.settings_from_form(f.cleaned_data)
    assert settings == {
        "mode": "chirashi", "players": 4, "cpu_level": "futsu", "poem_set": 2,
        "show_kimariji": True, "pace": "fast", "speech": True, "memorise_seconds": 900,
        "otetsuki_penalty": "sit_out", "lower_verse_twice": True, "ready_first": True,
    }  # fmt: skip
    assert game.player_count(settings) == 4
    f = form(mode="solo", players="")
    assert f.is_valid(), f.errors
    assert game.settings_from_form(f.cleaned_data)["players"] == 1


@pytest.mark.parametrize(
    ("field", "value", "english"),
    [
        ("mode", "blitz", "Choose competitive, chirashi, solo practice or genpei-sen."),
        ("players", "5", "Chirashi is played by 2 to 4 players."),
        ("cpu_level", "god", "Choose one of the five CPU levels."),
        ("poem_set", "9", "Choose all 100 poems or one set of 20."),
        ("pace", "warp", "Choose one of the listed reading paces."),
        ("memorise_seconds", "5", "Choose one of the listed memorisation times."),
    ],
)
def test_bad_form_input_gets_a_clear_translated_error(field, value, english):
    with translation.override("en"):
        f = form(**{"mode": "chirashi", field: value})
        assert not f.is_valid()
        assert f.errors[field] == [english]
    with translation.override("ja"):
        f = form(**{"mode": "chirashi", field: value})
        assert not f.is_valid()
        assert f.errors[field][0] != english  # translated


def test_ladder_command_prints_the_table_and_yardstick():
    out = StringIO()
    call_command("karuta_ladder", games=2, seed=3, stdout=out)
    text = out.getvalue()
    assert "row beats column" in text
    for level in ("nyumon", "yowai", "futsu", "tsuyoi", "meijin"):
        assert f"{level}: touches the card about" in text
    out = StringIO()
    call_command("karuta_ladder", games=2, seed=3, json=True, stdout=out)
    figures = json.loads(out.getvalue())
    assert set(figures["win_rate"]) == {"nyumon", "yowai", "futsu", "tsuyoi", "meijin"}
    assert figures["win_rate"]["meijin"]["nyumon"] == 1.0


def test_casual_play_defaults_to_a_short_memorisation_and_keeps_the_official_15_minutes():
    field = KarutaSettingsForm().fields["memorise_seconds"]
    assert field.initial == "120"
    with translation.override("en"):
        choices = [(k, str(v)) for k, v in field.choices]
        assert ("900", "15 minutes (official matches)") in choices
        assert "15 minutes" in str(field.help_text) and "2 minutes" in str(field.help_text)
    assert engine.normalize_settings({"mode": "competitive"})["memorise_seconds"] == 120
    assert engine.normalize_settings({"memorise_seconds": 900})["memorise_seconds"] == 900


def test_only_test_settings_add_the_engines_fastest_pace_to_the_menu(game, settings):
    """KARUTA_EXTRA_PACES (config/settings_test.py, absent from config/settings.py) adds the
    engine's fastest pace, 20 kana a second, for browser tests; production's menu keeps the
    four named paces."""
    import config.settings as production

    assert not hasattr(production, "KARUTA_EXTRA_PACES")
    named = ["slow", "standard", "fast", "very_fast"]
    del settings.KARUTA_EXTRA_PACES
    assert [k for k, _ in KarutaSettingsForm().fields["pace"].choices] == named
    assert not form(pace="20").is_valid()
    settings.KARUTA_EXTRA_PACES = (20,)
    assert [k for k, _ in KarutaSettingsForm().fields["pace"].choices] == [*named, "20"]
    f = form(pace="20")
    assert f.is_valid(), f.errors
    chosen = game.settings_from_form(f.cleaned_data)
    assert chosen["pace"] == 20 and engine.normalize_settings(chosen)["pace"] == 20
    f = form(pace="fast")
    assert f.is_valid() and game.settings_from_form(f.cleaned_data)["pace"] == "fast"


def test_only_test_settings_offer_a_smaller_poem_set(game, settings):
    """KARUTA_EXTRA_POEM_SET_SIZES (config/settings_test.py, absent from config/settings.py)
    offers the first N poems of a set, for browser tests that play chirashi or solo to the
    end; production's menu has no such field, and a size without a set is no game."""
    import config.settings as production

    assert not hasattr(production, "KARUTA_EXTRA_POEM_SET_SIZES")
    del settings.KARUTA_EXTRA_POEM_SET_SIZES
    assert "poem_set_size" not in KarutaSettingsForm().fields
    f = form(mode="chirashi", players="3", poem_set="2", poem_set_size="10")
    assert f.is_valid(), f.errors
    assert "poem_set_size" not in game.settings_from_form(f.cleaned_data)
    settings.KARUTA_EXTRA_POEM_SET_SIZES = (10, 12)
    choices = KarutaSettingsForm().fields["poem_set_size"].choices
    assert [k for k, _ in choices] == ["", "10", "12"]
    f = form(mode="chirashi", players="3", poem_set="2", poem_set_size="10")
    assert f.is_valid(), f.errors
    chosen = game.settings_from_form(f.cleaned_data)
    assert chosen["poem_set_size"] == 10
    state = engine.new_state(chosen, [{"is_cpu": False}] * 3, seed=1)
    assert sorted(engine.field_cards(state)) == sorted(state["queue"]) == list(range(21, 31))
    f = form(mode="competitive", poem_set="", poem_set_size="12")
    assert f.is_valid(), f.errors
    assert "poem_set_size" not in game.settings_from_form(f.cleaned_data)  # all 100 poems
    assert not form(poem_set="1", poem_set_size="7").is_valid()
    wrong = [
        {"poem_set_size": 10},
        {"poem_set": 1, "poem_set_size": 3},
        {"poem_set": 1, "poem_set_size": 21},
        {"poem_set": 1, "poem_set_size": "10"},
    ]
    for chosen in wrong:
        with pytest.raises(engine.InvalidSettingsError):
            engine.normalize_settings(chosen)
