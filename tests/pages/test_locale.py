"""platform/pages/locale: every string translated into ja, en and zh_Hans, and compiled."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "platform" / "pages" / "locale"
ENTRY = re.compile(
    r'^(#, (?P<flags>.*)\n)?msgid (?P<msgid>(?:".*"\n)+)(?:msgid_plural (?:".*"\n)+)?'
    r'(?P<msgstr>(?:msgstr(?:\[\d\])? (?:".*"\n)+)+)',
    re.M,
)


def unquote(lines: str) -> str:
    return (
        "".join(re.findall(r'"(.*)"', lines))
        .encode()
        .decode("unicode_escape")
        .encode("latin-1")
        .decode("utf-8")
    )


def entries(language: str) -> list[tuple[str, list[str], str]]:
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    text = re.sub(r"^#~.*\n", "", text, flags=re.M)  # obsolete entries do not count
    found = []
    for m in ENTRY.finditer(text):
        msgid = unquote(m.group("msgid"))
        if not msgid:
            continue  # the header
        strs = [
            unquote(s) for s in re.findall(r"msgstr(?:\[\d\])? ((?:\".*\"\n)+)", m.group("msgstr"))
        ]
        found.append((msgid, strs, m.group("flags") or ""))
    return found


@pytest.mark.parametrize("language", ["ja", "en", "zh_Hans"])
def test_every_string_is_translated_and_compiled(language):
    found = entries(language)
    assert len(found) > 100
    for msgid, strs, flags in found:
        assert "fuzzy" not in flags, msgid
        assert all(s.strip() for s in strs), f"{language}: untranslated {msgid!r}"
    with (LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog
    compiled = {k[0] if isinstance(k, tuple) else k for k in catalog}
    missing = [msgid for msgid, _, _ in found if msgid not in compiled]
    assert missing == [], f"{language}: run compilemessages"


def test_all_languages_hold_the_same_strings():
    ids = {lang: {m for m, _, _ in entries(lang)} for lang in ("ja", "en", "zh_Hans")}
    assert ids["ja"] == ids["en"] == ids["zh_Hans"]


def test_placeholders_survive_translation():
    for language in ("ja", "zh_Hans"):
        for msgid, strs, _ in entries(language):
            wanted = sorted(re.findall(r"%\(\w+\)s|\{\w+\}", msgid))
            for s in strs:
                assert sorted(re.findall(r"%\(\w+\)s|\{\w+\}", s)) == wanted, (language, msgid)
