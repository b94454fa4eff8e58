"""The Bozu Mekuri page: figures rounded once, the seat-order sentence, terms and facts."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from games.bozu import figures, views

pytestmark = pytest.mark.django_db

PAGES = {"ja": "/bozu/", "en": "/en/bozu/", "zh-hans": "/zh-hans/bozu/"}


@pytest.fixture
def pages(client):
    return {lang: client.get(url).content.decode() for lang, url in PAGES.items()}


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def _figures_json(html: str) -> dict:
    found = re.search(
        r'<script id="bozu-figures" type="application/json">(.*?)</script>', html, re.S
    )
    return json.loads(found.group(1))


def test_figures_are_rounded_once_on_the_server(pages):
    # 4 players, default rules: the winner's mean is 64.75837 cards. Truncating gave "64.7"
    # and page.js then showed "64.8"; both must be the rounded value.
    row = figures.figures_for({})
    assert 64.75 < row["winner_mean_cards"] < 64.76
    html = pages["en"]
    assert re.search(r'data-figure="winner_mean_cards">64\.8<', html)
    table = _figures_json(html)
    shipped = next(r for r in table["rows"] if r["settings"] == row["settings"])
    assert shipped["shown"]["winner_mean_cards"] == "64.8"
    # The page script renders these strings as they are: it computes no figure itself.
    assert shipped["shown"]["sole"] == [views._percent(x) for x in row["sole_first"]]
    assert "sole_first" not in shipped


def test_rounding_is_half_up_not_truncation():
    assert views._cards(64.75837) == "64.8"
    assert views._cards(12.95) == "13.0"
    assert views._percent(0.251625) == "25.16%"  # 25.1625 → 25.16 (not binary-float noise)
    assert views._percent(0.246805) == "24.68%"


def test_seat_order_sentence_states_the_usual_figure_its_convention_and_ours(pages):
    text = _text(pages["en"])
    sentence = re.search(r"The seat order hardly matters\..*?most frequent\.", text, re.S).group(0)
    assert "about half a" not in text and "0.5" not in sentence
    assert "24.5–25.0%" in sentence and "at random" in sentence
    red_first = figures.figures_for({})["sole_first"]
    random_first = figures.load_table()["random_first"]["sole_first"]
    for value in (max(red_first), min(red_first), max(random_first), min(random_first)):
        assert views._percent(value) in sentence
    assert all(0.245 <= x <= 0.250 for x in random_first)  # the usual range, reproduced
    assert "(red)" in sentence.lower() and "(yellow)" in sentence.lower()
    assert "24.5〜25.0%" in _text(pages["ja"]) and "24.5–25.0%" in _text(pages["zh-hans"])


def test_chinese_page_uses_one_set_of_terms(pages):
    zh = pages["zh-hans"]
    assert "翻和尚牌" in zh and "公卿" in zh and "和尚" in zh
    body = re.sub(r"坊主めくり|坊主起し|<span lang=\"ja\">.*?</span>", "", zh)
    for old in ("坊主翻牌", "贵族", "僧侣"):
        assert old not in body, old
    assert not re.search(r"(?<![ぁ-んァ-ン])坊主(?![めく起])", _text(body)), (
        "坊主 as a Chinese term"
    )
    assert "殿" not in re.sub(r"\(殿\)|（殿）", "", _text(body))


def test_japanese_faq_and_history_follow_the_facts(pages):
    ja = _text(pages["ja"])
    assert "何人でも" not in ja and "もっと多い人数" in ja
    assert "藤原定家" in ja
    assert "Fujiwara no Teika" in _text(pages["en"]) and "藤原定家" in _text(pages["zh-hans"])


def test_no_cpu_level_selector_and_the_page_says_why(pages):
    for lang, html in pages.items():
        menu = re.search(r'<section class="game-menu".*?</section>', html, re.S).group(0)
        assert '<select name="cpu_level"' not in menu, lang
        assert 'type="radio" name="cpu_level"' not in menu, lang
        assert re.search(r'<input type="hidden" name="cpu_level" value="beginner"', menu), lang
        assert 'id="no-cpu-levels"' in html, lang
    assert "no CPU level" in _text(pages["en"])
