"""How the reading is cut into clips, and when each kana is voiced. Pure Python.

Everything here is computed from the poem data and `games.karuta.reading` (the one source
of times); the synthesizer (`build.py`) only renders what this module plans.

Voicing
-------
Each printed kana is one mora, voiced from its time in the schedule. A kana inside a
phrase lasts one unit (up to the next kana). A phrase's last kana is held for
`PHRASE_HOLD_UNITS` of the schedule's `PHRASE_GAP_UNITS` and the rest of the gap is
silence (a breath); the verse's last kana is held for `FINAL_VOICED_UNITS` of the
schedule's `FINAL_HOLD_UNITS`, the rest being the silence before the 余韻.

Clips
-----
Upper verses are split at the branching points of a trie whose letters are, per kana,
(comparison key, time): two poems share a clip exactly as long as they sound the same
AND are timed the same. Every trie node shared by several poems is one clip, cut from
one canonical synthesis (the lowest-numbered poem through it); the rest of each verse,
from the kana where it leaves all rivals, is that poem's own clip. A shared clip's last
kana may end a phrase in some poems through the node and not in others: the node's clip
then voices that kana for one unit only (no hold), in every poem through it, so its bytes
cannot tell them apart. Lower verses and the 序歌 are whole clips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from games.karuta import reading
from poems import catalogue, kana

PHRASE_HOLD_UNITS = 1.5  # of reading.PHRASE_GAP_UNITS (2.5): the rest is a breath
FINAL_VOICED_UNITS = 4  # of reading.FINAL_HOLD_UNITS (8): the rest is silence
CROSSFADE_MS = 8  # a shared clip runs on this long past its end, fading out under the next
CONSONANT_SHARE = 0.45  # a kana's consonants take at most this share of a unit...
CONSONANT_MAX_MS = 60  # ...and at most this long: they sound before the kana's time


def lead_in_ms(unit: int) -> int:
    """How long before its first kana's time a clip begins: that kana's consonants sound
    before its time (its vowel, the loud part, is on it), after a fade-in of CROSSFADE_MS."""
    return consonant_budget_ms(unit) + CROSSFADE_MS


def consonant_budget_ms(unit: int) -> int:
    return min(CONSONANT_MAX_MS, int(CONSONANT_SHARE * unit))


VOICED_PACES = ("slow", "standard", "fast", "very_fast")


@dataclass(frozen=True)
class Verse:
    """One verse to synthesize: its printed phrases, one sound per printed kana."""

    phrases: tuple[str, ...]  # printed kana, one phrase each
    sounds: tuple[str, ...]  # what the synthesizer is fed per printed kana (modern kana, ー)
    keys: tuple[str, ...] = ()  # what rivals are compared on (the trie's letters); sounds if ()

    @property
    def size(self) -> int:
        return len(self.sounds)

    def finals(self) -> tuple[bool, ...]:
        """Whether each kana ends a phrase."""
        out: list[bool] = []
        for phrase in self.phrases:
            out += [False] * (len(phrase) - 1) + [True]
        return tuple(out)


@dataclass(frozen=True)
class Take:
    """One synthesis: a verse with the imposed onset and voiced length of every kana (ms)."""

    name: str  # e.g. "kami/17/standard": which verse at which pace
    verse: Verse
    onsets: tuple[int, ...]
    voiced: tuple[int, ...]  # ms each kana sounds; onset + voiced <= next onset
    unit: int  # the pace's unit (ms)

    @property
    def end(self) -> int:
        return self.onsets[-1] + self.voiced[-1]


@dataclass(frozen=True)
class Segment:
    """One clip to cut: kana [first, stop) of a take, placed at `start` on the reading clock."""

    key: str  # stable name of what the clip voices (its content hash comes from the build)
    part: str  # "kami" | "shimo" | "joka" | "joka_shimo"
    take: Take
    first: int
    stop: int
    tail: int  # ms the clip runs on past its end (crossfade), 0 for the last clip

    @property
    def lead_in(self) -> int:
        """ms the clip begins before its first kana's time (the consonants sound first)."""
        return lead_in_ms(self.take.unit)

    @property
    def begin(self) -> int:
        """ms from the take's first kana at which the clip's first sample lies."""
        return self.take.onsets[self.first] - self.lead_in

    @property
    def length(self) -> int:
        """The clip's duration in ms: its kana as voiced, plus the crossfade tail. A clip
        that the next joins mid-phrase ends where the next begins (its lead-in, before the
        next kana's consonants), plus the tail."""
        last = self.stop - 1
        if self.ends_in_silence:
            end = self.take.onsets[last] + self.take.voiced[last]
        else:
            end = self.take.onsets[self.stop] - self.lead_in
        return end + self.tail - self.begin

    @property
    def onsets(self) -> tuple[int, ...]:
        return tuple(t - self.begin for t in self.take.onsets[self.first : self.stop])

    @property
    def ends_in_silence(self) -> bool:
        """Whether silence follows its last kana (the verse's end, or a breath after a
        phrase): nothing then joins on at its end, and its file ends where its sound does."""
        last = self.stop - 1
        if self.stop == self.take.verse.size:
            return True
        return self.take.onsets[self.stop] > self.take.onsets[last] + self.take.voiced[last]


def _synth_sounds(phrases: Sequence[str], keys: Sequence[str], said: Sequence[str]):
    """Comparison keys (a long o is fed as ー whatever its spelling, so rivals get one input),
    except at a phrase's start, where a long vowel cannot be: there the sound itself."""
    out = list(keys)
    i = 0
    for phrase in phrases:
        if out[i] == "ー":
            out[i] = said[i]
        i += len(phrase)
    return tuple(out)


def voicing(verse: Verse, unit: int, short: Iterable[int] = ()) -> tuple[int, ...]:
    """ms each kana is voiced; kana in `short` are never held (one unit)."""
    short = set(short)
    finals = verse.finals()
    out = []
    for i, final in enumerate(finals):
        if i == verse.size - 1:
            out.append(unit + round(FINAL_VOICED_UNITS * unit))
        elif final and i not in short:
            out.append(unit + round(PHRASE_HOLD_UNITS * unit))
        else:
            out.append(unit)
    return tuple(out)


def kami_verse(number: int) -> Verse:
    record = catalogue.poem(number)
    phrases = tuple(record.kami_kana.split())
    keys = tuple(kana.comparison_keys(list(record.kami_sounds)))
    return Verse(phrases, _synth_sounds(phrases, keys, record.kami_sounds), keys)


def _said_per_kana(printed: str, said: str) -> tuple[str, ...]:
    """One sound per printed kana of a verse whose pronunciation is given as phrases.

    Lower verses and the 序歌 are whole clips, so only the whole verse's sound matters:
    each phrase's sound goes on its first kana (the synthesizer is fed phrase by phrase)."""
    out: list[str] = []
    for phrase, sound in zip(printed.split(), said.split(), strict=True):
        out += [sound] + [""] * (len(phrase) - 1)
    return tuple(out)


def whole_verse(printed: str, said: str) -> Verse:
    return Verse(tuple(printed.split()), _said_per_kana(printed, said))


def _trie_letters(verse: Verse, unit: int) -> tuple[tuple[str, int], ...]:
    text = "".join(verse.phrases)
    times, _ = reading.verse_timing(" ".join(verse.phrases), unit)
    assert len(text) == len(times) == verse.size
    return tuple(zip(verse.keys or verse.sounds, times, strict=True))


def split_upper(verses: dict[int, Verse], unit: int) -> dict[int, list[tuple[int, int, int]]]:
    """Each verse's clips as (canonical verse, first, stop), following the trie.

    Exposed over any set of verses so that the split itself can be tested on made-up ones.
    """
    letters = {n: _trie_letters(v, unit) for n, v in verses.items()}
    through: dict[tuple, list[int]] = {}
    for n, word in letters.items():
        for i in range(len(word)):
            through.setdefault(word[: i + 1], []).append(n)
    out: dict[int, list[tuple[int, int, int]]] = {}
    for n, word in letters.items():
        clips = []
        first = 0
        for i in range(len(word)):
            members = through[word[: i + 1]]
            if len(members) == 1:  # the verse has left every rival: the rest is its own
                clips.append((n, first, len(word)))
                break
            nxt = through.get(word[: i + 2], [])
            if i + 1 == len(word) or sorted(nxt) != sorted(members):  # a branching point
                clips.append((min(members), first, i + 1))
                first = i + 1
        out[n] = clips
    return out


def _short_kana(verses: dict[int, Verse], split: dict[int, list[tuple[int, int, int]]]):
    """Per verse, the kana that end a shared clip whose verses disagree on holding them."""
    short: dict[int, set[int]] = {n: set() for n in verses}
    by_node: dict[tuple[int, int, int], list[int]] = {}
    for n, clips in split.items():
        for clip in clips[:-1]:
            by_node.setdefault(clip, []).append(n)
    for (_, _, stop), members in by_node.items():
        if len({verses[m].finals()[stop - 1] for m in members}) > 1:
            for m in members:
                short[m].add(stop - 1)
    return short


@cache
def upper_segments(pace: str) -> dict[int, tuple[Segment, ...]]:
    """Every poem's upper-verse clips at a pace, in play order."""
    unit = reading.unit_ms(pace)
    verses = {p.number: kami_verse(p.number) for p in catalogue.poems()}
    split = split_upper(verses, unit)
    short = _short_kana(verses, split)
    takes = {}
    for n, verse in verses.items():
        onsets, _ = reading.verse_timing(" ".join(verse.phrases), unit)
        takes[n] = Take(f"kami/{n}/{pace}", verse, onsets, voicing(verse, unit, short[n]), unit)
    out = {}
    for n, clips in split.items():
        segments = []
        for index, (canon, first, stop) in enumerate(clips):
            own = index == len(clips) - 1
            key = f"kami/{pace}/{canon}/{first}-{stop}" + ("" if own else "/shared")
            tail = 0 if own else CROSSFADE_MS
            segments.append(Segment(key, "kami", takes[canon], first, stop, tail))
        out[n] = tuple(segments)
    return out


def _whole(name: str, part: str, verse: Verse, pace: str) -> Segment:
    unit = reading.unit_ms(pace)
    onsets, _ = reading.verse_timing(" ".join(verse.phrases), unit)
    take = Take(name, verse, onsets, voicing(verse, unit), unit)
    return Segment(name, part, take, 0, verse.size, 0)


@cache
def lower_segment(poem: int, pace: str) -> Segment:
    record = catalogue.poem(poem)
    verse = whole_verse(record.shimo_kana, record.shimo_said)
    return _whole(f"shimo/{pace}/{poem}", "shimo", verse, pace)


@cache
def joka_segments(pace: str) -> tuple[Segment, Segment]:
    """The 序歌 in full, then its lower verse once more (its own clip: read again, held)."""
    whole = whole_verse(catalogue.JOKA_KANA, catalogue.JOKA_SAID)
    phrases, said = catalogue.JOKA_KANA.split(), catalogue.JOKA_SAID.split()
    lower = whole_verse(" ".join(phrases[3:]), " ".join(said[3:]))
    return (
        _whole(f"joka/{pace}", "joka", whole, pace),
        _whole(f"joka_shimo/{pace}", "joka_shimo", lower, pace),
    )


def all_segments(pace: str) -> dict[str, Segment]:
    """Every distinct clip of a pace, by key."""
    out: dict[str, Segment] = {}
    for segments in upper_segments(pace).values():
        for segment in segments:
            out[segment.key] = segment
    for poem in range(1, catalogue.POEM_COUNT + 1):
        segment = lower_segment(poem, pace)
        out[segment.key] = segment
    for segment in joka_segments(pace):
        out[segment.key] = segment
    return out
