"""The kimariji trainer's voice: for each poem, the upper verse's clips up to its deciding
kana, read from the voice's manifest at run time (the clips' names are content hashes that
change with each build: nothing names one here). The trainer hides nothing: its page shows
every kimariji and card, so the whole table goes with the page (and offline with it)."""

from __future__ import annotations

from functools import cache

from django.templatetags.static import static

from games.karuta import voice
from poems import catalogue, kimariji

PACE = "standard"


@cache
def kimariji_clips(pace: str = PACE) -> dict[str, list[list[object]]]:
    """Poem number → [[url, start, end], ...] in play order: each clip starts `start` ms
    after the first one (whose first sample is its lead-in before the verse's first kana:
    a kana's consonants sound before its time) and plays `end` ms of itself; the last one
    stops where the sound of the kana after the deciding one begins (the manifest's
    `sounds`: that kana's consonants come before its time). {} when the voice is not
    built."""
    if not voice.available():
        return {}
    entries = {e["id"]: e for e in voice.manifest()["paces"][pace].values()}
    table = {}
    for poem in catalogue.poems():
        n = poem.number
        length = kimariji.static_kimariji(n)
        clips = [
            c
            for c in voice.reading_clips("competitive", n, None, pace)
            if c.part == "kami" and c.first_kana < length
        ]
        chain = []
        for clip in clips:
            after = length - clip.first_kana  # the kana after the deciding one, in this clip
            sounds = entries[clip.id]["sounds"]
            end = sounds[after][0] if after < len(sounds) else clip.duration
            chain.append([static(clip.file), clip.start - clips[0].start, end])
        table[str(n)] = chain
    return table
