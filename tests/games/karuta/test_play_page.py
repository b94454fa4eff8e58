"""The karuta menu, the match it creates, its play page and its events in words."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

import gamekit
from gamekit.events import for_viewer
from games.karuta import engine
from games.karuta.text import describe_events
from matches.models import Match

MENU = {
    "mode": "competitive", "cpu_level": "nyumon", "pace": "fast", "memorise_seconds": "0",
    "otetsuki_penalty": "sit_out", "speech": "on", "poem_set": "1", "language": "ja",
}  # fmt: skip


def script_json(html: str, element_id: str):
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</script>', html, re.S)
    assert found, element_id
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_menu_offers_the_modes_levels_with_descriptions_and_every_option():
    html = Client().get("/en/karuta/").content.decode()
    assert 'action="/play/new/karuta/"' in html
    for key in ("nyumon", "yowai", "futsu", "tsuyoi", "meijin"):
        assert f'id="id_cpu_level_{key}"' in html and f'id="level-help-{key}"' in html
    assert html.count('name="cpu_level"') == 5  # one level field only: the radios
    assert "Waits until the reader has finished the upper verse" in html
    for name in ("mode", "players", "poem_set", "show_kimariji", "pace", "speech",
                 "memorise_seconds", "otetsuki_penalty"):  # fmt: skip
        assert f'name="{name}"' in html, name
    assert 'data-play-mode="cpu"' in html and 'data-play-mode="solo"' in html
    assert "js/karuta/menu.js" in html


@pytest.mark.django_db
def test_menu_post_creates_a_competitive_match_and_its_play_page():
    client = Client()
    response = client.post("/play/new/karuta/", {**MENU, "play_mode": "cpu"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.settings["mode"] == "competitive" and match.settings["poem_set"] == 1
    assert [s.kind for s in match.seats.order_by("index")] == ["human", "cpu"]
    html = client.get(response["Location"]).content.decode()
    assert "js/karuta/play.js" in html and "data-side-own" in html
    cards = script_json(html, "karuta-cards")
    assert len(cards) == 100 and cards["2"]["tori"] == "ころもほすてふ あまのかくやま"
    strings = script_json(html, "karuta-strings")
    assert strings["modes"]["competitive"] == "競技" and strings["take"] == "取って！"
    config = script_json(html, "match-config")
    assert config["telemetry_settings"] == {
        "players": "2", "mode": "competitive", "poem_set": "20", "pace": "fast",
        "show_kimariji": "off", "speech": "on", "memorise": "none",
        "otetsuki_penalty": "sit_out", "poem_list": "off",
    }  # fmt: skip


@pytest.mark.django_db
def test_play_page_speaks_the_language_the_menu_was_in():
    client = Client()
    response = client.post("/play/new/karuta/", {**MENU, "language": "zh-hans", "play_mode": "cpu"})
    html = client.get(response["Location"]).content.decode()
    assert '<html lang="zh-hans"' in html
    assert script_json(html, "karuta-strings")["take"] == "快取牌！"


@pytest.mark.django_db
def test_practise_alone_is_solo_and_takes_a_poem_list():
    client = Client()
    poems = "17,4,6,31"
    response = client.post("/play/new/karuta/", {**MENU, "poems": poems, "play_mode": "solo"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.mode == "solo" and match.settings["mode"] == "solo"  # the button decides
    assert sorted(match.settings["poems"]) == [4, 6, 17, 31] and match.settings["poem_set"] is None
    state = gamekit.registry.get("karuta").load_state(match.state)
    assert sorted(state["pool"]) == [4, 6, 17, 31]
    bad = client.post(
        "/play/new/karuta/", {**MENU, "poems": "1,1,x", "play_mode": "solo"},
        HTTP_ACCEPT="application/json",
    )  # fmt: skip
    assert bad.status_code == 400 and "poems" in bad.json()["errors"]
    # A poem list outside solo practice is ignored, never an error.
    client.post("/play/new/karuta/", {**MENU, "poems": poems, "play_mode": "cpu"})
    assert Match.objects.filter(mode="cpu").get().settings.get("poems") is None


def _competitive_situation():
    # Card 1 on A's side, 2 on B's side; the read order makes 1 then 2 live readings.
    sides = [[[1, 3], [], []], [[2, 4], [], []]]
    return engine.situation(sides, queue=[1, 2, 3, 4, 5])


def test_event_texts_for_a_dabu_in_three_languages():
    state = _competitive_situation()
    # Card 1 (A's side) is read: A touches B's side (otetsuki) and B takes card 1 → dabu.
    state, _ = engine.apply(state, 0, {"type": "touch", "card": 2, "t": 300})
    state, _ = engine.apply(state, 1, {"type": "touch", "card": 1, "t": 400})
    state, events = engine.apply(state, 0, {"type": "pass"})
    result = next(e for e in events if e["type"] == "result")
    assert result["dabu"] and result["send"] == {"from": 1, "to": 0, "count": 2}
    with translation.override("en"):
        texts = describe_events(events)
    assert "Blue took 「" in texts[0] and "after the deciding sound" in texts[0]
    assert "Red: otetsuki." in texts
    assert "Dabu: Red committed otetsuki and lost a card on their own side." in texts
    assert texts[-1] == "Blue sends Red 2 cards."  # the send comes before any reading
    with translation.override("ja"):
        ja = describe_events(events)
    assert "赤：お手つき。" in ja and any(t.startswith("ダブ：") for t in ja)
    with translation.override("zh-hans"):
        zh = describe_events(events)
    assert "红：误触。" in zh


def test_texts_never_name_a_poem_before_it_is_read_nor_a_touch():
    state = _competitive_situation()
    poem = state["reading"]["poem"]
    card_text = engine.catalogue.poem(poem).torifuda.split()[0]
    reading = [{"type": "reading", "number": 1, "poem": poem, "prev": 0}]
    touch = [{"type": "touch", "seat": 1, "card": poem, "t": 900}]
    with translation.override("en"):
        assert describe_events(reading) == ["Reading 1 begins."]
        assert describe_events(touch) == []
    assert all(card_text not in t for t in describe_events(reading))


def test_send_events_stay_public_through_the_match_server():
    state = engine.situation([[[1, 3], [], []], [[2, 4], [], []]], queue=[2, 1, 3, 4, 5])
    state, events = engine.apply(state, 0, {"type": "touch", "card": 2, "t": 500})
    state, _ = engine.apply(state, 1, {"type": "pass"})
    assert state["phase"] == "send"
    state, events = engine.apply(state, 0, {"type": "send", "card": 3})
    send = next(e for e in events if e["type"] == "send")
    assert "to" not in send  # "to" is the server's list of private recipients
    assert for_viewer(events, 1) == events
    with translation.override("en"):
        assert describe_events([send])[0].startswith("Red sent 「")


def test_chirashi_and_solo_texts():
    with translation.override("en"):
        chirashi = describe_events([{
            "type": "result", "number": 3, "poem": 17, "taker": 2, "t": 2000,
            "after_kimariji": 450, "simultaneous": False, "otetsuki": [1, 0, 0],
            "sit_out": [0], "returned": [],
        }])  # fmt: skip
        assert chirashi == [
            "Green took 「からくれなゐに…」, 0.45 s after the deciding sound.",
            "Red: otetsuki.",
            "Red sits out the next poem.",
        ]
        solo = describe_events([{
            "type": "result", "number": 1, "poem": 17, "kimariji": 3, "decided": 400,
            "t": None, "after_kimariji": None, "wrong": [[4, 300], [5, 600]],
        }])  # fmt: skip
        assert solo == ["You missed 「からくれなゐに…」.", "2 wrong cards touched."]
        over = describe_events([{"type": "over", "winner": None, "scores": [3, 3],
                                 "places": [1, 1], "score_kind": "cards_taken"}])  # fmt: skip
        assert over == ["The game ends in a tie at 3 cards."]


def test_telemetry_buckets_are_declared_values_only():
    game = gamekit.registry.get("karuta")
    schema = game.telemetry_settings_schema()
    buckets = game.telemetry_settings_buckets(
        {"mode": "solo", "poems": [3, 1], "memorise_seconds": 900, "pace": 9.5}
    )
    assert buckets["memorise"] == "15m" and buckets["pace"] == "custom"
    assert buckets["poem_list"] == "on" and buckets["poem_set"] == "20"
    for key, value in buckets.items():
        assert value in schema[key], key
