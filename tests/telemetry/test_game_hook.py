"""gamekit.Game's optional telemetry hook: player count by default, declared rule buckets."""

import json

import pytest

import gamekit
from gamekit import Mode
from gamekit.registry import registry
from telemetry.throttling import COUNTER
from tests.telemetry.helpers import ENDPOINT, batch, game_start


class HookTest(gamekit.Game):
    slug = "hooktest"
    name = "Hook test"
    min_players = 2
    max_players = 3
    modes = (Mode.CPU,)
    cpu_levels = (gamekit.CpuLevel("strong", "Strong"),)
    telemetry_settings = {"bomb_rule": ("on", "off"), "deck": ("small", "full")}


def test_default_schema_is_the_player_count():
    assert registry.get("coinflip").telemetry_settings_schema() == {"players": ("1",)}


def test_bozu_declares_its_rule_options():
    schema = registry.get("bozu").telemetry_settings_schema()
    assert schema["players"] == ("2", "3", "4")
    assert set(schema["semimaru"]) == {"monk", "noble", "skip_turn", "others_to_field"}
    assert schema["princess_extra_draw"] == ("on", "off")
    buckets = registry.get("bozu").telemetry_settings_buckets(
        {"players": 4, "semimaru": "monk", "emperor": "noble", "princess_extra_draw": False}
    )
    assert buckets == {
        "players": "4",
        "semimaru": "monk",
        "emperor": "noble",
        "princess_extra_draw": "off",
    }


def test_settings_become_declared_buckets_only():
    game = HookTest()
    buckets = game.telemetry_settings_buckets(
        {"players": 3, "bomb_rule": True, "deck": "huge", "nickname": "taro"}
    )
    assert buckets == {"players": "3", "bomb_rule": "on"}


@pytest.fixture
def registered():
    game = registry.register(HookTest)
    COUNTER.clear()
    yield game
    registry.unregister("hooktest")


@pytest.mark.django_db
def test_a_game_registered_later_is_accepted_with_its_buckets(client, registered):
    good = game_start(game="hooktest", cpu_level="strong",
                      settings={"players": "2", "bomb_rule": "off", "deck": "full"})  # fmt: skip
    response = client.post(ENDPOINT, json.dumps(batch(good)), content_type="application/json")
    assert response.status_code == 202, response.content
    bad = game_start(game="hooktest", cpu_level="weak", settings={"deck": "huge"})
    response = client.post(ENDPOINT, json.dumps(batch(bad)), content_type="application/json")
    assert set(response.json()["errors"]) == {"events[0].cpu_level", "events[0].settings.deck"}
    schema = client.get("/api/telemetry/schema/", HTTP_ACCEPT="application/json").json()
    text = json.dumps(schema)
    assert '"hooktest"' in text and '"strong"' in text and '"small"' in text
