"""Genpei through the karuta plugin's contract: the menu form, team seats and levels, a
joiner's choice of team, telemetry buckets and the record's sentences."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

import gamekit
from gamekit import SeatSpec
from games.karuta import engine, text
from games.karuta.forms import KarutaSettingsForm


@pytest.fixture
def game():
    return gamekit.registry.get("karuta")


MENU = {
    "mode": "genpei",
    "cpu_level": "futsu",
    "pace": "standard",
    "memorise_seconds": "0",
    "team_size": "1",
    "enemy_size": "4",
    "seat_level_1": "meijin",
    "seat_level_3": "nyumon",
    "otetsuki_rule": "any",
}


def test_the_menu_makes_team_sizes_and_a_level_per_cpu_seat(game):
    form = KarutaSettingsForm(MENU)
    assert form.is_valid(), form.errors
    settings = game.settings_from_form(form.cleaned_data)
    assert settings["teams"] == [1, 4] and settings["players"] == 5
    assert settings["seat_levels"] == [None, "meijin", "futsu", "nyumon", "futsu"]
    assert settings["otetsuki_rule"] == "any"
    assert game.player_count(settings) == 5
    assert game.seat_levels(engine.normalize_settings(settings))[1:] == settings["seat_levels"][1:]


@pytest.mark.parametrize(
    "field,value", [("team_size", "5"), ("enemy_size", "0"), ("seat_level_2", "x")]
)
def test_bad_team_input_is_refused(field, value):
    assert not KarutaSettingsForm({**MENU, field: value}).is_valid()


def test_a_joiner_chooses_between_the_two_teams(game):
    groups = game.seat_groups({"mode": "genpei", "teams": [3, 2]})
    assert [g.seats for g in groups] == [(0, 1, 2), (3, 4)]
    with translation.override("ja"):
        assert [str(g.label) for g in game.seat_groups({"mode": "genpei"})] == ["源氏", "平家"]
    assert game.seat_groups({"mode": "chirashi", "players": 3}) == ()


def test_telemetry_gets_team_sizes_as_a_bucket_and_nothing_else(game):
    buckets = game.telemetry_settings_buckets({"mode": "genpei", "teams": [1, 3]})
    assert buckets["teams"] == "1v3" and buckets["players"] == "4"
    assert buckets["otetsuki_rule"] == "sides" and buckets["mode"] == "genpei"
    assert set(buckets) <= set(game.telemetry_settings_schema())
    assert "teams" not in game.telemetry_settings_buckets({"mode": "competitive"})
    assert game.telemetry_settings_schema()["players"][-1] == "8"


def test_a_cpu_seat_of_any_level_on_either_team_plays_through_the_contract(game):
    levels = [None, "meijin", "nyumon", "tsuyoi"]
    seats = [
        SeatSpec(i, gamekit.SEAT_COLOURS[i], is_cpu=lv is not None, cpu_level=lv)
        for i, lv in enumerate(levels)
    ]
    state = game.new_state({"mode": "genpei", "memorise_seconds": 0}, seats, seed=4)
    assert [s["level"] for s in state["seats"]] == levels
    rng = random.Random(0)
    for seat in (1, 2, 3):
        action = game.cpu_policy(game.view(state, seat), seat, levels[seat], rng)
        assert action["type"] in ("touch", "pass")
        assert game.clean_action(action) == action


def test_the_record_says_who_took_what_and_which_team_sends(game):
    state = engine.situation([[[1], [2], [3]], [[4], [5], [6]]], [5, 1, 2, 3, 4, 6], teams=(2, 2))
    state, _ = engine.apply(state, 1, {"type": "touch", "card": 5, "t": 700})
    events = []
    for seat in engine.to_act(state):
        state, events = engine.apply(state, seat, {"type": "pass"})
    state, sent = engine.apply(state, 1, {"type": "send", "card": 3})
    with translation.override("en"):
        lines = text.describe_events([*events, *sent])
    assert any("Blue took" in line for line in lines)
    assert "The Genji send the Heike 1 card, chosen by Blue." in lines
    assert any(line.startswith("Blue sent") and "to the Heike" in line for line in lines)
