"""Data for the kimariji list page and the poem snippet: computed, never typed.

Everything comes from the pure catalogue and poems.kimariji, so the page, the
database and the games agree on every kimariji.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from poems import catalogue, kana, kimariji


@dataclass(frozen=True)
class PoemView:
    """One poem as the pages show it, with its kimariji split out of the printed kana."""

    record: catalogue.PoemRecord
    kimariji_length: int

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def head(self) -> str:
        """The printed beginning that decides the poem (spaces kept)."""
        return split_printed(self.record.kami_kana, self.kimariji_length)[0]

    @property
    def tail(self) -> str:
        return split_printed(self.record.kami_kana, self.kimariji_length)[1]

    @property
    def torifuda_lines(self) -> list[str]:
        """The grabbing-card text in columns, as printed on real cards."""
        return torifuda_columns(self.record.torifuda)

    @property
    def kimariji(self) -> str:
        return kimariji.kimariji_kana(self.number, self.kimariji_length)


def split_printed(text: str, length: int) -> tuple[str, str]:
    """Split `text` after its first `length` kana; spaces are not counted (as in kimariji)."""
    seen = 0
    for i, ch in enumerate(text):
        if seen == length:
            return text[:i], text[i:]
        if ch != " ":
            seen += 1
    return text, ""


def torifuda_columns(torifuda: str) -> list[str]:
    """Split a torifuda into the columns of a real card: three kana each, five columns.

    The 14 to 16 kana of a lower verse are written without spaces, read right to
    left: わかこ / ろもて / はつゆ / にぬれ / つつ. A 16-kana verse squeezes four
    kana into its last column.
    """
    text = torifuda.replace(" ", "")
    columns = [text[i : i + 3] for i in range(0, len(text), 3)]
    if len(columns) > 5:
        columns[4:] = ["".join(columns[4:])]
    return columns


def poem_view(number: int, read: Iterable[int] = ()) -> PoemView:
    return PoemView(catalogue.poem(number), kimariji.dynamic_kimariji(number, read))


def groups() -> list[tuple[int, list[PoemView]]]:
    """All 100 poems grouped by static kimariji length, shortest first, in poem order."""
    views = sorted(
        (poem_view(p.number) for p in catalogue.poems()),
        key=lambda v: (v.kimariji_length, v.number),
    )
    return [(length, list(items)) for length, items in groupby(views, lambda v: v.kimariji_length)]


def comparison_keys(number: int) -> list[str]:
    """The sounds poems.kimariji compares, one per printed kana of the upper verse."""
    return kana.comparison_keys(list(catalogue.poem(number).kami_sounds))


def demo_data() -> dict[str, dict[str, object]]:
    """What the in-page demo needs: each poem's comparison keys and its printed upper verse."""
    return {
        str(p.number): {"keys": comparison_keys(p.number), "kana": p.kami_kana}
        for p in catalogue.poems()
    }


def script_json(data: object) -> str:
    """JSON safe inside a <script> element: no "<", ">" or "&" can end it early."""
    return (
        json.dumps(data, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
