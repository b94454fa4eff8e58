"""The Bakudan play page (bakudan/play.html): what its script needs is on the page, in every
language, and the page itself carries nothing of any hand (only the WebSocket does)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

import gamekit
from games.bakudan import number as game_number

pytestmark = pytest.mark.django_db

LANGUAGES = ["ja", "en", "zh-hans"]


def strings(html: str) -> dict:
    raw = re.search(r'id="bakudan-strings">(.*?)</script>', html, re.S).group(1)
    return json.loads(raw)


def start(language: str, mode: str = "cpu", **fields) -> tuple[Client, str]:
    client = Client()
    data = {"players": 3, "play_mode": mode, "language": language, **fields}
    if mode == "cpu":
        data.setdefault("cpu_level", "calm")
    response = client.post("/play/new/bakudan/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return client, response["Location"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_play_page_strings_are_valid_json_in_every_language(language):
    client, url = start(language)
    html = client.get(url).content.decode()
    assert f'<html lang="{language}">' in html
    text = strings(html)
    for key in ("yourTurn", "passTo", "revealAs", "owed", "outSurvivor", "copied"):
        assert "%(" in text[key] or key in ("yourTurn", "copied"), key
    assert set(text["kinds"]) == {
        "bomb", "nipper", "peek", "dodge", "bottom", "push", "snatch", "shield", "shuffle", "blank",
    }  # fmt: skip
    assert set(text["colours"]) == set(gamekit.SEAT_COLOURS)  # every seat colour the site has
    assert set(text["levels"]) == {"reckless", "calm", "ruthless"}
    assert 'src="/static/js/bakudan/play.js"' in html
    # The menu link of the result screen is in the page's language (the game link needs it).
    prefix = "" if language == "ja" else f"/{language}"
    assert f'href="{prefix}/bakudan/" data-menu-link' in html


def test_strings_are_translated():
    pages = {}
    for lang in LANGUAGES:
        client, url = start(lang)
        pages[lang] = strings(client.get(url).content.decode())
    assert pages["en"]["kinds"]["nipper"] == "Nipper"
    assert pages["ja"]["kinds"]["nipper"] == "ニッパー"
    assert pages["zh-hans"]["kinds"]["bomb"] == "炸弹"
    for key in ("passTo", "yourTurn", "outOver"):
        assert len({pages[lang][key] for lang in LANGUAGES}) == 3, key


def test_the_page_holds_no_card_of_the_deal():
    number = game_number.encode(3, "calm", 99)
    client, url = start("en", number=number)
    html = client.get(url).content.decode()
    assert re.search(r"\bc[0-9a-f]{8}\b", html) is None  # no card id
    assert number not in html  # the number reaches the page by the view, like everything else
