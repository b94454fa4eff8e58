"""The reading schedule: when each kana of a reading is shown (and voiced). Pure Python.

Time base
---------
Every time in a reading is an integer number of milliseconds measured from
**t = 0, the moment the first kana of the poem's upper verse is shown**. What the
reader says before that (the previous poem's lower verse, or the 序歌, then the
lingering pause 余韻 and a breath) has negative times. Clients start their clock
so that the first upper-verse kana appears at their t = 0 and send touch times
on that same clock.

Rhythm
------
At the standard pace (5 kana a second, one kana every 200 ms) a five-seven-five
upper verse takes about 6 s: 17 kana of 200 ms, a short gap between phrases
(2.5 kana) and the last kana held (8 kana). A lower verse takes about 5 s, the
pause 3 s and the breath 1 s (15 and 5 kana units). Every duration scales with
the pace, so a fast pace shortens the whole rhythm.

Phrases are the space-separated parts of the printed kana; each printed kana
gets one slot, whatever it is pronounced as (the kimariji count printed kana).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from poems import catalogue

PACES: dict[str, float] = {"slow": 3.5, "standard": 5.0, "fast": 7.0, "very_fast": 12.0}
MIN_PACE = 2.0
MAX_PACE = 20.0

PHRASE_GAP_UNITS = 2.5
FINAL_HOLD_UNITS = 8
PAUSE_UNITS = 15  # 余韻: 3 s at the standard pace
BREATH_UNITS = 5  # 1 s
COMPETITIVE_GRACE_UNITS = 15  # a live card may still be taken 3 s after the upper verse
AFTER_LOWER_UNITS = 5  # chirashi and solo close 1 s after the lower verse

JOKA = 0  # the "previous poem" of the first competitive reading


def kana_per_second(pace: str | float | int) -> float:
    """A named pace or a number of kana per second → kana per second (ValueError if neither)."""
    if isinstance(pace, str):
        if pace not in PACES:
            raise ValueError(f"unknown pace {pace!r}")
        return PACES[pace]
    if isinstance(pace, bool) or not isinstance(pace, int | float):
        raise ValueError(f"pace must be a name or a number, not {pace!r}")
    if not MIN_PACE <= float(pace) <= MAX_PACE:
        raise ValueError(f"pace must lie between {MIN_PACE} and {MAX_PACE} kana a second")
    return float(pace)


def unit_ms(pace: str | float | int) -> int:
    return round(1000 / kana_per_second(pace))


@cache
def verse_timing(kana_text: str, unit: int) -> tuple[tuple[int, ...], int]:
    """(start time of each printed kana from the verse's own start, total duration)."""
    times: list[int] = []
    t = 0.0
    for index, phrase in enumerate(kana_text.split()):
        if index:
            t += PHRASE_GAP_UNITS * unit
        for _ in phrase:
            times.append(round(t))
            t += unit
    return tuple(times), round(t + FINAL_HOLD_UNITS * unit)


def kami_times(poem: int, pace: str | float | int) -> tuple[int, ...]:
    """When each printed kana of the upper verse is shown (t = 0 for the first)."""
    return verse_timing(catalogue.poem(poem).kami_kana, unit_ms(pace))[0]


def kami_end(poem: int, pace: str | float | int) -> int:
    return verse_timing(catalogue.poem(poem).kami_kana, unit_ms(pace))[1]


def decided_ms(poem: int, kimariji_length: int, pace: str | float | int) -> int:
    """When the deciding kana (the last kana of a kimariji of that length) is shown."""
    times = kami_times(poem, pace)
    return times[min(kimariji_length, len(times)) - 1]


def close_ms(mode: str, poem: int, pace: str | float | int, lower_reads: int = 1) -> int:
    """The last moment a touch counts in this reading.

    Competitive: 3 s after the upper verse (its lower verse opens the next
    reading). Chirashi and solo: the lower verse follows the upper verse (read
    `lower_reads` times, a breath between), and the reading closes 1 s after it.
    """
    unit = unit_ms(pace)
    end = kami_end(poem, pace)
    if mode == "competitive":
        return end + COMPETITIVE_GRACE_UNITS * unit
    lower = verse_timing(catalogue.poem(poem).shimo_kana, unit)[1]
    lowers = lower_reads * (BREATH_UNITS * unit + lower)
    return end + lowers + AFTER_LOWER_UNITS * unit


def _segment(part: str, poem: int | None, text: str, said: str, start: int, end: int):
    return {"part": part, "poem": poem, "kana": text, "said": said, "start": start, "end": end}


def preamble(prev: int | None, pace: str | float | int) -> list[dict[str, Any]]:
    """What is read before t = 0, as segments with negative start/end times.

    prev is the previous poem, JOKA (0) for the first competitive reading (the
    序歌 in full, its lower verse once more), or None for the first reading of
    chirashi and solo (a breath only).
    """
    unit = unit_ms(pace)
    parts: list[tuple[str, int | None, str, str, int]] = []
    if prev == JOKA:
        phrases, said = catalogue.JOKA_KANA.split(), catalogue.JOKA_SAID.split()
        lower, lower_said = " ".join(phrases[3:]), " ".join(said[3:])
        whole = verse_timing(catalogue.JOKA_KANA, unit)[1]
        parts.append(("joka", None, catalogue.JOKA_KANA, catalogue.JOKA_SAID, whole))
        parts.append(("joka_shimo", None, lower, lower_said, verse_timing(lower, unit)[1]))
    elif prev is not None:
        record = catalogue.poem(prev)
        lower_ms = verse_timing(record.shimo_kana, unit)[1]
        parts.append(("shimo", prev, record.shimo_kana, record.shimo_said, lower_ms))
    if prev is not None:
        parts.append(("pause", None, "", "", PAUSE_UNITS * unit))
    parts.append(("breath", None, "", "", BREATH_UNITS * unit))
    total = sum(p[4] for p in parts)
    segments = []
    t = -total
    for part, poem, text, said, length in parts:
        segments.append(_segment(part, poem, text, said, t, t + length))
        t += length
    return segments


def schedule(
    mode: str,
    poem: int,
    prev: int | None,
    pace: str | float | int,
    kimariji_length: int,
    lower_reads: int = 1,
) -> dict[str, Any]:
    """The whole timetable of one reading, as the play page needs it (JSON-able).

    In chirashi and solo, "shimo" is the lower verse's first reading; when it is read
    twice, "shimo"["again"] gives the start and end of the second reading."""
    record = catalogue.poem(poem)
    unit = unit_ms(pace)
    times = kami_times(poem, pace)
    end = kami_end(poem, pace)
    result: dict[str, Any] = {
        "unit": unit,
        "preamble": preamble(prev, pace),
        "kami": {
            "kana": list(record.kami_kana_flat),
            "said": list(record.kami_sounds),
            "t": list(times),
            "end": end,
        },
        "shimo": None,
        "kimariji": kimariji_length,
        "decided": decided_ms(poem, kimariji_length, pace),
        "close": close_ms(mode, poem, pace, lower_reads),
    }
    if mode != "competitive":
        start = end + BREATH_UNITS * unit
        lower_times, lower_ms = verse_timing(record.shimo_kana, unit)
        result["shimo"] = {
            "kana": list(record.shimo_kana.replace(" ", "")),
            "said": record.shimo_said,
            "t": [start + x for x in lower_times],
            "end": start + lower_ms,
            "again": None,
        }
        if lower_reads > 1:
            again = start + lower_ms + BREATH_UNITS * unit
            result["shimo"]["again"] = {"start": again, "end": again + lower_ms}
    return result
