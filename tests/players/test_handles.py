"""Handles: every refusal rule with its message in ja / en / zh-hans, NFKC and case."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from players import accounts, handles, names


@pytest.mark.parametrize(
    ("raw", "shown"),
    [("karuta", "karuta"), ("ｋａｒｕｔａ", "karuta"), ("  Tanaka_1 ", "Tanaka_1"),
     ("かるた名人2", "かるた名人2"), ("李白-诗", "李白-诗"), ("Ωμέγα", "Ωμέγα"),
     ("हिन्दी", "हिन्दी"), ("①②③", "123"), ("a" * 20, "a" * 20)],
)  # fmt: skip
def test_good_handles_are_normalised(raw, shown):
    assert handles.check(raw) == shown


@pytest.mark.parametrize(
    ("raw", "rule"),
    [("ab", "too_short"), ("ｋａ", "too_short"), ("a" * 21, "too_long"),
     ("two words", "character"), ("dot.name", "character"), ("mail@x", "character"),
     ("\u0301abc", "character"), ("かるた・名人", "character"), ("emoji🙂x", "character"),
     ("admin", "reserved"), ("ＡＤＭＩＮ", "reserved"), ("Guest", "reserved")],
)  # fmt: skip
def test_each_rule_refuses(raw, rule):
    with pytest.raises(handles.HandleRefusal) as refused:
        handles.check(raw)
    assert refused.value.rule == rule


def test_keys_ignore_width_and_case():
    assert handles.handle_key("ｋａｒｕｔａ") == handles.handle_key("KARUTA") == "karuta"
    assert handles.handle_key("Straße") == handles.handle_key("STRASSE")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "word",
    ["meijin", "Master", "名人", "tsuyoi", "つよい", "beginner", "Intermediate", "ruthless",
     "無謀", "red", "Purple", "yellow", "admin", "account"],
)  # fmt: skip
def test_cpu_levels_colours_and_site_words_are_reserved(word):
    with pytest.raises(ValidationError) as refused:
        names.clean_new_handle(word)
    assert refused.value.code in ("reserved", "too_short")
    if len(handles.normalise(word)) >= handles.MIN_LENGTH:
        assert refused.value.code == "reserved"


@pytest.mark.django_db
def test_a_taken_handle_is_refused_whatever_its_width_or_case():
    accounts.create_account("karuta", "a-long-password-1")
    for variant in ("karuta", "ｋａｒｕｔａ", "KaRuTa", "ＫＡＲＵＴＡ"):
        with pytest.raises(ValidationError) as refused:
            names.clean_new_handle(variant)
        assert refused.value.code == "taken"
    # Two sign-ups racing past the check: the unique key refuses the second.
    with pytest.raises(accounts.HandleTaken):
        accounts.create_account("KARUTA")
    assert names.clean_new_handle("karuta2") == "karuta2"


@pytest.mark.django_db
def test_the_username_is_the_display_handle():
    user = accounts.create_account(handles.check("ｔａｎａｋａ"), None)
    assert user.get_username() == "tanaka" and user.player.handle_key == "tanaka"
    assert not user.has_usable_password()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("raw", "needle"),
    [("ab", {"ja": "3", "en": "at least 3", "zh-hans": "3"}),
     ("a" * 21, {"ja": "20", "en": "at most 20", "zh-hans": "20"}),
     ("two words", {"ja": "スペース", "en": "spaces", "zh-hans": "空格"}),
     ("dot.name", {"ja": "「.」", "en": "not “.”", "zh-hans": "“.”"}),
     ("admin", {"ja": "予約", "en": "reserved", "zh-hans": "保留"})],
)  # fmt: skip
def test_each_refusal_has_a_message_in_each_language(raw, needle):
    seen = set()
    for language in ("ja", "en", "zh-hans"):
        with translation.override(language), pytest.raises(ValidationError) as refused:
            names.clean_new_handle(raw)
        message = refused.value.messages[0]
        assert needle[language] in message, (language, message)
        seen.add(message)
    assert len(seen) == 3  # really translated, not the English three times


@pytest.mark.django_db
def test_taken_message_in_each_language():
    accounts.create_account("karuta", "a-long-password-1")
    expected = {"ja": "使われて", "en": "already taken", "zh-hans": "已被"}
    for language, needle in expected.items():
        with translation.override(language), pytest.raises(ValidationError) as refused:
            names.clean_new_handle("ｋａｒｕｔａ")
        assert needle in refused.value.messages[0]
