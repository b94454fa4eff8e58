"""The kimariji list page: 100 poems, computed groups, highlighted kimariji, three languages."""

from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape

import pytest

from pages import kimariji_list
from poems import catalogue, kimariji
from tests.support.html import english_runs

EXPECTED_GROUPS = {1: 7, 2: 42, 3: 37, 4: 6, 5: 2, 6: 6}  # docs/requirements.md §1
LANGUAGES = [("/", "ja"), ("/en/", "en"), ("/zh-hans/", "zh-hans")]

ARTICLE = re.compile(r'<article class="poem" id="poem-(\d+)" data-poem="\1".*?</article>', re.S)
SECTION = re.compile(r'<section class="kimariji-group" id="group-(\d+)".*?</section>', re.S)
HEAD = re.compile(
    r'<mark class="kimariji" data-role="head">(.*?)</mark><span data-role="tail">(.*?)</span>'
)


@pytest.fixture
def html_by_language(client):
    return {lang: client.get(f"{prefix}kimariji/").content.decode() for prefix, lang in LANGUAGES}


def test_groups_are_computed_with_the_known_sizes():
    sizes = {length: len(poems) for length, poems in kimariji_list.groups()}
    assert sizes == EXPECTED_GROUPS
    numbers = [p.number for _, poems in kimariji_list.groups() for p in poems]
    assert sorted(numbers) == list(range(1, 101))


@pytest.mark.parametrize(("prefix", "lang"), LANGUAGES)
def test_page_lists_100_poems_in_groups(client, prefix, lang):
    response = client.get(f"{prefix}kimariji/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert sorted(int(n) for n in ARTICLE.findall(html)) == list(range(1, 101))
    sizes = {int(m.group(1)): len(ARTICLE.findall(m.group(0))) for m in SECTION.finditer(html)}
    assert sizes == EXPECTED_GROUPS
    # Group order: shortest kimariji first.
    assert [int(n) for n in re.findall(r'id="group-(\d+)"', html)] == sorted(EXPECTED_GROUPS)


def test_each_poem_shows_its_verses_torifuda_and_highlighted_kimariji(client):
    html = client.get("/kimariji/").content.decode()
    for match in ARTICLE.finditer(html):
        number = int(match.group(1))
        block = unescape(match.group(0))
        record = catalogue.poem(number)
        for text in (record.poet, record.poet_kana, record.kami, record.shimo, record.shimo_kana):
            assert text in block, (number, text)
        # The torifuda is printed in five columns, without voicing marks.
        card = re.search(r'<div class="torifuda-card" lang="ja">(.*?)</div>', block).group(1)
        columns = re.findall(r"<span>(.*?)</span>", card)
        assert "".join(columns) == record.torifuda.replace(" ", "")
        assert len(columns) == 5 and all(len(c) <= 4 for c in columns)
        head, tail = HEAD.search(block).groups()
        assert head + tail == record.kami_kana
        assert head.replace(" ", "") == kimariji.kimariji_kana(number)
        assert len(head.replace(" ", "")) == kimariji.static_kimariji(number)


def test_torifuda_have_no_voicing_marks_but_verses_do(client):
    html = client.get("/kimariji/").content.decode()
    poem_1 = next(unescape(m.group(0)) for m in ARTICLE.finditer(html) if m.group(1) == "1")
    assert "わがころもでは" in poem_1  # the lower verse as read
    assert "<span>わかこ</span><span>ろもて</span><span>はつゆ</span>" in poem_1  # the card


def test_demo_data_is_the_servers_comparison_keys(client):
    html = client.get("/kimariji/").content.decode()
    raw = re.search(
        r'<script type="application/json" id="kimariji-data">(.*?)</script>', html, re.S
    )
    data = json.loads(raw.group(1))
    assert sorted(int(n) for n in data) == list(range(1, 101))
    for number, entry in data.items():
        record = catalogue.poem(int(number))
        assert entry["keys"] == kimariji_list.comparison_keys(int(number))
        assert len(entry["keys"]) == len(record.kami_kana_flat)
        assert entry["kana"] == record.kami_kana
    messages = json.loads(
        re.search(
            r'id="kimariji-messages" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert {"status", "count", "was"} <= set(messages)


def test_script_json_cannot_close_the_script_element():
    text = kimariji_list.script_json({"a": "</script><b>&"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><b>&"}


def test_torifuda_columns():
    assert kimariji_list.torifuda_columns("わかころもては つゆにぬれつつ") == [
        "わかこ", "ろもて", "はつゆ", "にぬれ", "つつ",
    ]  # fmt: skip
    assert kimariji_list.torifuda_columns("あ" * 16)[-1] == "ああああ"


def test_split_printed_skips_spaces():
    assert kimariji_list.split_printed("あさぼらけ ありあけの", 6) == ("あさぼらけ あ", "りあけの")
    assert kimariji_list.split_printed("むらさめの", 1) == ("む", "らさめの")
    assert kimariji_list.split_printed("ab", 5) == ("ab", "")


def test_poem_view_follows_dynamic_kimariji():
    assert kimariji_list.poem_view(75).kimariji == "ちぎりお"
    assert kimariji_list.poem_view(75, read=[42]).kimariji == "ちぎ"
    assert kimariji_list.poem_view(31, read=[64]).kimariji == "あさぼ"


def test_japanese_and_chinese_pages_have_no_untranslated_english(html_by_language):
    assert english_runs(html_by_language["en"])  # the detector finds English when it is there
    for lang in ("ja", "zh-hans"):
        assert english_runs(html_by_language[lang]) == [], lang
        for source in ("Upper verse", "Grabbing card", "Clear all marks", "Try it: watch"):
            assert source not in html_by_language[lang]


def test_translated_headings(html_by_language):
    assert "決まり字：どこで歌が決まるか" in html_by_language["ja"]
    assert "1字決まり（7首）" in html_by_language["ja"]
    assert "Decided at 2 kana (42 poems)" in html_by_language["en"]
    assert "3个假名确定（37首）" in html_by_language["zh-hans"]


def test_japanese_text_is_marked_as_japanese_on_other_pages(html_by_language):
    html = html_by_language["en"]
    assert '<span class="verse" lang="ja">秋の田の' in html
    assert '<div class="torifuda-card" lang="ja">' in html


def test_hreflang_alternates(client):
    html = client.get("/en/kimariji/").content.decode()
    links = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))
    assert links == {
        "ja": "http://testserver/kimariji/",
        "en": "http://testserver/en/kimariji/",
        "zh-Hans": "http://testserver/zh-hans/kimariji/",
        "x-default": "http://testserver/kimariji/",
    }


def test_group_index_counts_match():
    counts = Counter(kimariji.static_kimariji(n) for n in range(1, 101))
    assert dict(counts) == EXPECTED_GROUPS
