"""The Bakudan Mekuri page: three languages, the FAQ and its JSON-LD, the deck table computed
from the engine, and the menu opened from a game link (`?number=`)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from games.bakudan import engine, faq
from games.bakudan import number as game_number
from tests.support.html import english_runs, visible_text

LANGUAGES = [("/", "ja"), ("/en/", "en"), ("/zh-hans/", "zh-hans")]
SECTIONS = ("how-to-play", "cards", "deck", "tips", "playing-cards", "faq")

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(client):
    return {lang: client.get(f"{prefix}bakudan/").content.decode() for prefix, lang in LANGUAGES}


def faq_on_page(html: str) -> list[dict[str, str]]:
    block = re.search(r'<dl class="faq">(.*?)</dl>', html, re.S).group(1)
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", block, re.S)
    return [{"question": unescape(q), "answer": unescape(a)} for q, a in pairs]


def jsonld(html: str) -> dict:
    raw = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1)
    assert "<" not in raw  # nothing in the data can end the script element
    return json.loads(raw)


def input_value(html: str, name: str) -> str | None:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    if not tag:
        return None
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return unescape(value.group(1)) if value else None


def menu(html: str) -> str:
    return re.search(r'<section class="game-menu".*?</section>', html, re.S).group(0)


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_page_renders_every_section(client, prefix, lang):
    response = client.get(f"{prefix}bakudan/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    for section in SECTIONS:
        assert f'<section id="{section}"' in html
        assert f'href="#{section}"' in html  # the table of contents reaches it
    assert 'name="play_mode" value="cpu"' in html and 'value="hotseat"' in html
    assert 'value="friend"' in html
    form = menu(html)
    for level in ("reckless", "calm", "ruthless"):  # radio buttons, each with its description
        assert f'id="id_cpu_level_{level}"' in form and f'id="level-help-{level}"' in form
    assert re.findall(r'id="id_cpu_level_(\w+)"[^>]*checked', form) == ["reckless"]
    assert 'name="number"' in html


def test_title_and_headings_are_translated(pages):
    titles = {lang: re.search(r"<title>(.*?)</title>", h).group(1) for lang, h in pages.items()}
    assert titles["ja"].startswith("爆弾めくり")
    assert titles["en"].startswith("Bakudan Mekuri")
    assert titles["zh-hans"].startswith("炸弹翻牌")
    assert "遊び方" in pages["ja"] and "玩法" in pages["zh-hans"] and "How to play" in pages["en"]
    descriptions = {
        lang: re.search(r'<meta name="description" content="([^"]*)">', h).group(1)
        for lang, h in pages.items()
    }
    assert len(set(descriptions.values())) == 3


def test_no_untranslated_english_on_japanese_and_chinese_pages(pages):
    assert english_runs(pages["en"])  # the detector does find English
    for lang in ("ja", "zh-hans"):
        assert english_runs(pages[lang]) == [], lang
        for source in ("Why these numbers", "Three mistakes beginners make", "Bottom draw"):
            assert source not in pages[lang]


@pytest.mark.parametrize("lang", ["ja", "en", "zh-hans"])
def test_faq_jsonld_matches_the_visible_faq(pages, lang):
    visible = faq_on_page(pages[lang])
    assert len(visible) == len(faq.FAQ)
    data = jsonld(pages[lang])
    assert data["@context"] == "https://schema.org" and data["@type"] == "FAQPage"
    structured = [
        {"question": q["name"], "answer": q["acceptedAnswer"]["text"]} for q in data["mainEntity"]
    ]
    assert structured == visible


def test_deck_table_is_the_engines(pages):
    html = pages["en"]
    table = re.search(r'<table class="deck-table">.*?</table>', html, re.S).group(0)
    for players, composition in engine.COMPOSITION.items():
        cell = re.search(rf'<td data-deck-size="{players}">(\d+)</td>', table)
        assert int(cell.group(1)) == composition.deck_size(players)
    bombs = re.search(r'<tr data-kind="bomb">(.*?)</tr>', table, re.S).group(1)
    assert [int(n) for n in re.findall(r"<td>(\d+)</td>", bombs)] == [1, 2, 3, 4]
    peeks = re.search(r'<tr data-kind="peek">(.*?)</tr>', table, re.S).group(1)
    expected = [engine.COMPOSITION[p].actions["peek"] for p in sorted(engine.COMPOSITION)]
    assert [int(n) for n in re.findall(r"<td>(\d+)</td>", peeks)] == expected


def test_a_game_link_fills_in_the_menu_and_offers_the_start(client):
    number = game_number.encode(3, "calm", 12345)
    html = client.get("/en/bakudan/", {"number": number}).content.decode()
    form = menu(html)
    assert input_value(form, "number") == number
    assert re.search(r'<option value="3" selected>', form)
    # The number's personality is the one checked, and the only one.
    assert re.findall(r'id="id_cpu_level_(\w+)"[^>]*checked', form) == ["calm"]
    start = re.search(r"<section class=\"number-start\".*?</section>", html, re.S).group(0)
    assert number in start and "data-start-number" in start
    # The prominent start posts the very settings of the number.
    assert input_value(start, "number") == number and input_value(start, "players") == "3"
    assert input_value(start, "cpu_level") == "calm"
    assert "data-number-error" not in html


def test_a_number_typed_loosely_is_still_the_same_game(client):
    number = game_number.encode(4, "ruthless", 777)
    loose = number.replace("-", "").lower()
    html = client.get("/bakudan/", {"number": loose}).content.decode()
    assert "data-start-number" in html
    assert re.search(r'<option value="4" selected>', menu(html))


@pytest.mark.parametrize("bad", ["ZZZ", "A9N-1K7Q", "!!!!!!!!", "x" * 500])
def test_a_bad_number_is_refused_clearly(client, bad):
    response = client.get("/en/bakudan/", {"number": bad})
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-start-number" not in html
    alert = re.search(r'<div class="number-error" role="alert".*?</div>', html, re.S).group(0)
    assert "cannot be used" in visible_text(alert)
    assert len(visible_text(alert)) > 40  # says what is wrong, not just "error"


def test_a_mistyped_number_is_caught_by_its_check_symbol(client):
    number = game_number.encode(2, "reckless", 4242)
    symbols = number.replace("-", "")
    wrong = symbols[:4] + ("0" if symbols[4] != "0" else "1") + symbols[5:]
    html = client.get("/en/bakudan/", {"number": wrong}).content.decode()
    assert "data-number-error" in html and "data-start-number" not in html


def test_home_lists_the_game(client):
    html = client.get("/").content.decode()
    assert 'data-game="bakudan"' in html and "/bakudan/" in html
