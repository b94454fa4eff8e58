"""A stand-in for `games.karuta.voice` (docs/voice.md) that follows the contract's shape
and its one promise the release relies on: upper-verse clips split at the branching
points of the static trie of the 100 upper verses, so a clip starting before a poem's
deciding kana is the same clip (id, start, onsets) for every poem with that beginning.
`per_poem=True` breaks that promise on purpose (every clip named after its poem), so the
release tests can show they would catch a voice that gives the poem away."""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from functools import cache

from games.karuta import reading
from poems import catalogue


@dataclass(frozen=True)
class Clip:
    id: str
    file: str
    start: int
    duration: float
    part: str
    first_kana: int
    onsets: tuple[int, ...]


def _clip(key: str, part: str, start: int, times: list[int], end: int, first: int) -> Clip:
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    onsets = tuple(t - start for t in times)
    return Clip(
        digest, f"karuta/voice/{digest}.ogg", start, float(end - start), part, first, onsets
    )


@cache
def _branches() -> frozenset[str]:
    """Every prefix of an upper verse after which the 100 verses go different ways."""
    verses = [catalogue.poem(n).kami_kana_flat for n in range(1, 101)]
    cut = set()
    for verse in verses:
        for k in range(1, len(verse)):
            if len({v[k] for v in verses if v.startswith(verse[:k]) and len(v) > k}) > 1:
                cut.add(verse[:k])
    return frozenset(cut)


def _kami(poem: int, pace: str, per_poem: bool) -> list[Clip]:
    verse = catalogue.poem(poem).kami_kana_flat
    times = list(reading.kami_times(poem, pace))
    end = reading.kami_end(poem, pace)
    cuts = [k for k in range(1, len(verse)) if verse[:k] in _branches()]
    bounds = [0, *cuts, len(verse)]
    clips = []
    for first, last in itertools.pairwise(bounds):
        stop = times[last] if last < len(verse) else end
        # Named by the beginning it voices (and the pace): shared by all poems that have it.
        key = f"{pace}:kami:{verse[:last]}" + (f":{poem}" if per_poem else "")
        clips.append(_clip(key, "kami", times[first], times[first:last], stop, first))
    return clips


def reading_clips(
    mode: str, poem: int, prev: int | None, pace: str, lower_reads: int = 1, per_poem=False
) -> list[Clip]:
    if pace not in reading.PACES:
        raise KeyError(pace)
    plan = reading.schedule(mode, poem, prev, pace, len(catalogue.poem(poem).kami_kana_flat))
    unit = plan["unit"]
    clips = []
    for seg in plan["preamble"]:
        if seg["kana"]:
            times = [seg["start"] + t for t in reading.verse_timing(seg["kana"], unit)[0]]
            key = f"{pace}:{seg['part']}:{seg['poem']}"
            clips.append(_clip(key, seg["part"], seg["start"], times, seg["end"], 0))
    clips += _kami(poem, pace, per_poem)
    shimo = plan["shimo"]
    if shimo is not None:
        end = shimo["end"]
        clips.append(_clip(f"{pace}:shimo:{poem}", "shimo_read", shimo["t"][0], shimo["t"], end, 0))
        if lower_reads > 1:
            again = [t - shimo["t"][0] + end + reading.BREATH_UNITS * unit for t in shimo["t"]]
            stop = again[0] + end - shimo["t"][0]
            clips.append(_clip(f"{pace}:again:{poem}", "shimo_again", again[0], again, stop, 0))
    return clips
