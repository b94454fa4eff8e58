"""The strings a play page hands its scripts (each game's `_play_strings.html`) come out
translated on Japanese and Chinese pages.

A `{% translate %}` tag looks its text up with every `%` doubled (Django escapes it so it
is not read as a format), so a catalogue entry written `%(ms)s` rather than `%%(ms)s` is
never found and the page shows the English (issue 43: the voice's latency notes)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(ROOT.glob("games/*/templates/*/_play_strings.html"))
SENTENCE = re.compile(r"[A-Za-z]+[ ,.:][^%]*[A-Za-z]")  # two English words or more


def strings(name: str, language: str) -> dict[str, str]:
    with translation.override(language):
        html = render_to_string(name)
    return dict(flat(json.loads(re.search(r">\s*(\{.*\})\s*<", html, re.S).group(1))))


def flat(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flat(v, f"{key}.{k}" if key else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from flat(v, f"{key}[{i}]")
    else:
        yield key, str(value)


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.parent.name for p in TEMPLATES])
@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_play_strings_are_translated(path: Path, language: str):
    name = f"{path.parent.name}/{path.name}"
    english, shown = strings(name, "en"), strings(name, language)
    assert shown.keys() == english.keys()
    same = [k for k, v in english.items() if SENTENCE.search(v) and shown[k] == v]
    assert same == [], f"{language}: shown in English: {same}"
