"""The karuta rules page: three languages, FAQ and its JSON-LD, diagrams that follow the rules."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from games.karuta import diagrams, faq
from games.karuta.diagrams import Touch, settle
from games.karuta.views import ONE_KANA_MNEMONIC
from pages import kimariji_list
from poems import catalogue
from tests.support.html import english_runs, visible_text

LANGUAGES = [("/", "ja"), ("/en/", "en"), ("/zh-hans/", "zh-hans")]
SECTIONS = ("cards", "reading", "chirashi", "genpei", "competitive", "kimariji", "tips", "faq")


@pytest.fixture
def pages(client):
    return {lang: client.get(f"{prefix}karuta/").content.decode() for prefix, lang in LANGUAGES}


def faq_on_page(html: str) -> list[dict[str, str]]:
    block = re.search(r'<dl class="faq">(.*?)</dl>', html, re.S).group(1)
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", block, re.S)
    return [{"question": unescape(q), "answer": unescape(a)} for q, a in pairs]


def jsonld(html: str) -> dict:
    raw = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S).group(1)
    assert "<" not in raw  # nothing in the data can end the script element
    return json.loads(raw)


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_page_renders_every_section(client, prefix, lang):
    response = client.get(f"{prefix}karuta/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    for section in SECTIONS:
        assert f'<section id="{section}"' in html
        assert f'href="#{section}"' in html  # the table of contents reaches it
    assert len(re.findall(r'<figure class="otetsuki-case"', html)) == len(diagrams.CASES)
    assert f'href="{prefix}kimariji/"' in html


def test_title_and_description_are_translated(pages):
    titles = {
        lang: re.search(r"<title>(.*?)</title>", html).group(1) for lang, html in pages.items()
    }
    assert titles["ja"].startswith("百人一首かるたの遊び方")
    assert titles["en"].startswith("Hyakunin Isshu karuta: how to play")
    assert titles["zh-hans"].startswith("百人一首歌留多玩法")
    descriptions = {
        lang: re.search(r'<meta name="description" content="([^"]*)">', html).group(1)
        for lang, html in pages.items()
    }
    assert len(set(descriptions.values())) == 3
    assert "お手つき" in descriptions["ja"] and "误触" in descriptions["zh-hans"]


def test_no_untranslated_english_on_japanese_and_chinese_pages(pages):
    assert english_runs(pages["en"])  # the detector does find English
    for lang in ("ja", "zh-hans"):
        assert english_runs(pages[lang]) == [], lang
        for source in ("How the poems are read", "Otetsuki, case by case", "Cards on your side"):
            assert source not in pages[lang]


@pytest.mark.parametrize("lang", ["ja", "en", "zh-hans"])
def test_faq_jsonld_matches_the_visible_faq(pages, lang):
    visible = faq_on_page(pages[lang])
    data = jsonld(pages[lang])
    assert data["@context"] == "https://schema.org" and data["@type"] == "FAQPage"
    structured = [
        {"question": q["name"], "answer": q["acceptedAnswer"]["text"]} for q in data["mainEntity"]
    ]
    assert all(q["@type"] == "Question" for q in data["mainEntity"])
    assert structured == visible
    assert len(visible) == len(faq.FAQ) >= 6


def test_faq_is_in_the_pages_language(pages):
    assert faq_on_page(pages["ja"])[0]["question"] == "百首すべてを覚えていないと遊べませんか？"
    assert (
        faq_on_page(pages["en"])[0]["question"]
        == "Do I need to know all 100 poems by heart to play?"
    )
    assert faq_on_page(pages["zh-hans"])[0]["question"] == "必须背下全部一百首才能玩吗？"


def test_hreflang_alternates(pages):
    links = dict(
        re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', pages["ja"])
    )
    assert links == {
        "ja": "http://testserver/karuta/",
        "en": "http://testserver/en/karuta/",
        "zh-Hans": "http://testserver/zh-hans/karuta/",
        "x-default": "http://testserver/karuta/",
    }


def test_kimariji_table_and_examples_are_computed(pages):
    html = pages["en"]
    table = re.search(r'<table class="kimariji-counts">(.*?)</table>', html, re.S).group(1)
    rows = [tuple(map(int, r)) for r in re.findall(r"<tr><td>(\d)</td><td>(\d+)</td></tr>", table)]
    assert rows == [(1, 7), (2, 42), (3, 37), (4, 6), (5, 2), (6, 6)]
    text = visible_text(html)
    assert "ちぎりおきし is decided at ちぎ." in text
    assert "the first is decided at あさぼ." in text


def test_facts_the_text_states_hold_for_the_data():
    first_sounds = [p.kami_sounds[0] for p in catalogue.poems()]
    assert first_sounds.count("あ") == 16  # "Sixteen poems begin with あ"
    assert first_sounds.count("ち") == 3  # "Three poems begin with ち"
    one_kana = {
        p.kimariji for length, poems in kimariji_list.groups() if length == 1 for p in poems
    }
    assert one_kana == set(ONE_KANA_MNEMONIC) and len(ONE_KANA_MNEMONIC) == 7
    assert {p.number for p in catalogue.poems() if p.kami_kana.startswith("あさぼらけ")} == {31, 64}


def test_tips_list_the_one_kana_poems_in_mnemonic_order(pages):
    block = re.search(r'<ul class="one-kana">(.*?)</ul>', pages["ja"], re.S).group(1)
    assert "".join(re.findall(r"<strong>(.)</strong>", block)) == ONE_KANA_MNEMONIC


def test_japanese_terms_are_marked_on_english_and_chinese_pages(pages):
    for lang in ("en", "zh-hans"):
        assert '<span lang="ja">ちぎりきな</span>' in pages[lang]
        assert '<blockquote class="joka" lang="ja">' in pages[lang]


# --- the rule behind the diagrams (docs/requirements.md §3, competitive karuta) -------------


def test_taking_your_own_card():
    out = settle("you", [Touch("you", "you", 0)], taker="you")
    assert out.change == {"you": -1, "opponent": 0} and out.sent == {"you": 0, "opponent": 0}


def test_taking_from_the_opponent_sends_a_card():
    out = settle("opponent", [Touch("you", "opponent", 0)], taker="you")
    assert out.sent == {"you": 1, "opponent": 0}
    assert out.change == {"you": -1, "opponent": 0}


def test_wrong_card_on_the_right_side_is_not_otetsuki():
    out = settle("you", [Touch("you", "you", 1), Touch("you", "you", 0)], taker="you")
    assert out.otetsuki == {"you": 0, "opponent": 0}


def test_any_touch_on_a_dead_card_is_otetsuki():
    for side in ("you", "opponent"):
        out = settle(None, [Touch("you", side, 0)], taker=None)
        assert out.otetsuki["you"] == 1 and out.sent == {"you": 0, "opponent": 1}


def test_dabu_costs_two_cards():
    out = settle(
        "you", [Touch("you", "opponent", 0), Touch("opponent", "you", 1)], taker="opponent"
    )
    assert out.sent == {"you": 0, "opponent": 2}
    assert out.change == {"you": 1, "opponent": -2}


def test_take_with_otetsuki_cancels_the_send():
    out = settle("opponent", [Touch("you", "you", 0), Touch("you", "opponent", 1)], taker="you")
    assert out.otetsuki["you"] == 1
    assert out.sent == {"you": 0, "opponent": 0}
    assert out.change == {"you": 0, "opponent": -1}


def test_dead_card_touching_both_sides_costs_two():
    out = settle(None, [Touch("you", "you", 0), Touch("you", "opponent", 0)], taker=None)
    assert out.sent == {"you": 0, "opponent": 2}


def test_tomo_otetsu_has_no_penalty():
    out = settle(None, [Touch("you", "you", 0), Touch("opponent", "opponent", 0)], taker=None)
    assert out.otetsuki == {"you": 1, "opponent": 1}
    assert out.penalised == {"you": 0, "opponent": 0} and out.sent == {"you": 0, "opponent": 0}


def test_a_dead_card_cannot_be_taken():
    with pytest.raises(ValueError):
        settle(None, [], taker="you")


def test_every_case_balances_the_cards():
    """Cards only leave the field by being taken; sends move them between sides."""
    for case in diagrams.CASES:
        out = case.outcome
        taken = 1 if case.taker else 0
        assert out.change["you"] + out.change["opponent"] == -taken, case.key
        assert min(out.sent.values()) == 0  # opposite sends were netted


def test_diagram_numbers_on_the_page_come_from_settle(pages):
    html = pages["en"]
    for case in diagrams.CASES:
        figure = re.search(
            rf'<figure class="otetsuki-case" id="case-{case.key}">(.*?)</figure>', html, re.S
        )
        changes = re.findall(r'<span class="mini-change">(.*?)</span>', figure.group(1))
        assert changes == [diagrams.signed(case.outcome.change[s]) for s in ("opponent", "you")]


def test_the_touch_rule_is_stated_with_its_reason(pages):
    """This site's rule (a touch counts from the deciding kana) and why, on the rules page
    and in the FAQ, in each language (issue 43)."""
    for lang, html in pages.items():
        rule = html.split('id="touch-rule"', 1)[1].split("</section>", 1)[0]
        assert "0.1" in rule, lang
    assert "counts from the deciding kana" in pages["en"]
    assert "取りは決まり字から有効" in pages["ja"]
    assert "触碰从决定字起才算数" in pages["zh-hans"]
    questions = {lang: [q["question"] for q in faq_on_page(html)] for lang, html in pages.items()}
    assert "Why was my touch refused as too early?" in questions["en"]
    assert "取りが「早すぎる」として無効になったのはなぜですか？" in questions["ja"]
    assert "为什么我的触碰因为太早而被拒绝？" in questions["zh-hans"]
