"""Small HTML helpers for page tests: visible text and untranslated English."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Four or more English words in a row: a sentence that was not translated.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,'’:-]+[A-Za-z]{2,}){3,}")


class _TextExtractor(HTMLParser):
    SKIP = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self._skip += 1
        # Text in attributes people read or hear, and the meta description.
        attributes = dict(attrs)
        for name in ("alt", "aria-label", "title"):
            if attributes.get(name):
                self.parts.append(f" {attributes[name]} ")
        if tag == "meta" and attributes.get("name") == "description":
            self.parts.append(f" {attributes.get('content') or ''} ")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _TextExtractor()
    parser.feed(html)
    return " ".join("".join(parser.parts).split())


def english_runs(html: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Runs of English words in the page's visible text, minus allowed phrases."""
    text = visible_text(html)
    for phrase in allowed:
        text = text.replace(phrase, " ")
    return ENGLISH_RUN.findall(text)
