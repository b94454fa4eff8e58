"""platform/players/locale: every string translated into ja, en and zh_Hans, and compiled."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from tests.pages import test_locale as site

LOCALE = Path(__file__).resolve().parents[2] / "platform" / "players" / "locale"


def entries(language):
    original = site.LOCALE
    site.LOCALE = LOCALE
    try:
        return site.entries(language)
    finally:
        site.LOCALE = original


@pytest.mark.parametrize("language", ["ja", "en", "zh_Hans"])
def test_every_string_is_translated_and_compiled(language):
    found = entries(language)
    assert len(found) > 80
    for msgid, strs, flags in found:
        assert "fuzzy" not in flags, msgid
        assert all(s.strip() for s in strs), f"{language}: untranslated {msgid!r}"
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog
    # A key is "context\x04msgid" where the entry has a msgctxt.
    compiled = {(k[0] if isinstance(k, tuple) else k).split("\x04")[-1] for k in catalog}
    assert [m for m, _, _ in found if m not in compiled] == [], "run compilemessages"


def test_all_languages_hold_the_same_strings():
    ids = {lang: {m for m, _, _ in entries(lang)} for lang in ("ja", "en", "zh_Hans")}
    assert ids["ja"] == ids["en"] == ids["zh_Hans"]
