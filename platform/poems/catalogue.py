"""The 100 poems as plain Python objects, read from this project's data files.

Pure Python (no Django): engines import it; the `poems` app's data migration
loads the database from it, so both always agree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

from poems import kana

DATA_DIR = Path(__file__).resolve().parent / "data"
POEM_COUNT = 100

# 序歌: read before the first card in competitive karuta; never a card itself.
JOKA_KANJI = "難波津に 咲くやこの花 冬ごもり 今を春べと 咲くやこの花"
JOKA_KANA = "なにはづに さくやこのはな ふゆごもり いまをはるべと さくやこのはな"
JOKA_SAID = "なにわずに さくやこのはな ふゆごもり いまおはるべと さくやこのはな"


class PoetClass(StrEnum):
    """Bozu Mekuri's classes. Emperors and nyudo are drawn as nobles on this site."""

    NOBLE = "noble"  # 殿
    EMPEROR = "emperor"  # 天皇・院 (a kind of noble)
    NYUDO = "nyudo"  # 入道 (a kind of noble)
    PRINCESS = "princess"  # 姫
    MONK = "monk"  # 坊主
    SEMIMARU = "semimaru"  # 蝉丸

    @property
    def is_noble(self) -> bool:
        return self in (PoetClass.NOBLE, PoetClass.EMPEROR, PoetClass.NYUDO)


@dataclass(frozen=True)
class PoemRecord:
    number: int
    poet: str
    poet_kana: str
    kami: str
    shimo: str
    kami_kana: str
    shimo_kana: str
    kami_said: str  # pronounced, modern kana
    shimo_said: str
    kami_sounds: tuple[str, ...]  # one per kana of kami_kana without spaces
    torifuda: str  # shimo_kana without voicing marks (spaces kept between phrases)
    poet_class: PoetClass

    @property
    def kami_kana_flat(self) -> str:
        return self.kami_kana.replace(" ", "")


def _load_classes() -> dict[int, PoetClass]:
    raw = json.loads((DATA_DIR / "poet_classes.json").read_text(encoding="utf-8"))
    classes = {n: PoetClass.NOBLE for n in range(1, POEM_COUNT + 1)}
    for key in ("emperor", "nyudo", "princess", "monk", "semimaru"):
        for number in raw[key]:
            classes[number] = PoetClass(key)
    return classes


@cache
def poems() -> tuple[PoemRecord, ...]:
    raw = json.loads((DATA_DIR / "hyakunin_isshu.json").read_text(encoding="utf-8"))
    classes = _load_classes()
    records = []
    for item in sorted(raw, key=lambda p: p["number"]):
        n = item["number"]
        kami_sounds = kana.sounds(item["kami_kana"], item["kami"], n)
        records.append(
            PoemRecord(
                number=n,
                poet=item["poet"],
                poet_kana=item["poet_kana"],
                kami=item["kami"],
                shimo=item["shimo"],
                kami_kana=item["kami_kana"],
                shimo_kana=item["shimo_kana"],
                kami_said="".join(s or " " for s in kami_sounds),
                shimo_said=kana.pronounce(item["shimo_kana"], item["shimo"], n),
                kami_sounds=tuple(
                    s for s, ch in zip(kami_sounds, item["kami_kana"], strict=True) if ch != " "
                ),
                torifuda=kana.strip_voicing(item["shimo_kana"]),
                poet_class=classes[n],
            )
        )
    if [p.number for p in records] != list(range(1, POEM_COUNT + 1)):
        raise ValueError("the poem data must hold poems 1..100 exactly once")
    return tuple(records)


def poem(number: int) -> PoemRecord:
    if not 1 <= number <= POEM_COUNT:
        raise KeyError(number)
    return poems()[number - 1]
