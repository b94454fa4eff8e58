"""The reading voice: which pre-built clip plays when in a reading. Pure Python, no Django.

The clips are synthesized offline (`manage.py build_voice`, see docs/voice.md) and
committed under static/karuta/voice/ with a manifest beside this module (never served).
`reading_clips` places them on the reading clock of `games.karuta.reading.schedule`;
the split itself is `plan.py`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.karuta import reading
from games.karuta.voice import plan

PACES: frozenset[str] = frozenset(plan.VOICED_PACES)

MANIFEST = Path(__file__).resolve().parent / "manifest.json"
STATIC_DIR = Path(__file__).resolve().parents[3] / "static"  # the project's static root
CLIP_DIR = "karuta/voice"  # under the static root


@dataclass(frozen=True)
class Clip:
    id: str  # content hash of the clip's bytes; also the file's stem
    file: str  # path under the static root
    start: int  # ms on the reading's clock at which the clip's first sample plays (its
    # first kana's time less its lead-in: the consonants sound before the kana's time)
    duration: float  # ms of audio in the file, as decoded
    part: str  # "joka" | "joka_shimo" | "shimo" | "kami" | "shimo_read" | "shimo_again"
    first_kana: int  # index into that part's printed kana of the first kana voiced
    onsets: tuple[int, ...]  # ms from the clip's start of each printed kana it voices


@cache
def manifest() -> dict[str, Any] | None:
    """The built manifest, or None when it has not been built."""
    if not MANIFEST.exists():
        return None
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def available() -> bool:
    """True when the built manifest and every clip file it names are present."""
    built = manifest()
    if built is None:
        return False
    paces = built.get("paces", {})
    if set(paces) != set(PACES):
        return False
    return all((STATIC_DIR / e["file"]).is_file() for c in paces.values() for e in c.values())


def _entry(segment: plan.Segment, pace: str) -> dict[str, Any]:
    """The built clip of a segment; before a build, a stand-in named after its key."""
    built = manifest()
    if built is not None and segment.key in built["paces"].get(pace, {}):
        return built["paces"][pace][segment.key]
    stem = "unbuilt-" + hashlib.sha256(segment.key.encode()).hexdigest()[:16]
    return {"id": stem, "file": f"{CLIP_DIR}/{stem}.mp3", "duration": float(segment.length)}


def _clip(segment: plan.Segment, pace: str, part: str, first_time: int) -> Clip:
    """The segment's clip, its first kana at `first_time` on the reading clock."""
    entry = _entry(segment, pace)
    return Clip(
        id=entry["id"],
        file=entry["file"],
        start=first_time - segment.lead_in,
        duration=entry["duration"],
        part=part,
        first_kana=segment.first,
        onsets=segment.onsets,
    )


def reading_clips(
    mode: str, poem: int, prev: int | None, pace: str, lower_reads: int = 1
) -> list[Clip]:
    """Every clip of one reading in play order, on the clock of reading.schedule.

    Upper-verse clips follow the static trie: every clip whose first kana comes before the
    poem's deciding kana is shared (same id, same bytes, same start) by every poem with
    that beginning. KeyError for a pace that is not voiced."""
    if pace not in PACES:
        raise KeyError(pace)
    timetable = reading.schedule(mode, poem, prev, pace, 1, lower_reads)
    clips: list[Clip] = []
    for seg in timetable["preamble"]:
        if seg["part"] == "joka":
            clips.append(_clip(plan.joka_segments(pace)[0], pace, "joka", seg["start"]))
        elif seg["part"] == "joka_shimo":
            clips.append(_clip(plan.joka_segments(pace)[1], pace, "joka_shimo", seg["start"]))
        elif seg["part"] == "shimo":
            clips.append(_clip(plan.lower_segment(seg["poem"], pace), pace, "shimo", seg["start"]))
    times = timetable["kami"]["t"]
    for segment in plan.upper_segments(pace)[poem]:
        clips.append(_clip(segment, pace, "kami", times[segment.first]))
    lower = timetable["shimo"]
    if lower is not None:
        clips.append(_clip(plan.lower_segment(poem, pace), pace, "shimo_read", lower["t"][0]))
        if lower["again"] is not None:
            again = plan.lower_segment(poem, pace)
            clips.append(_clip(again, pace, "shimo_again", lower["again"]["start"]))
    return clips
