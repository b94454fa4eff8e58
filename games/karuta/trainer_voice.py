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
    after the verse's first kana and plays `end` ms of itself; the last one stops where the
    kana after the deciding one would begin. {} when the voice is not built."""
    if not voice.available():
        return {}
    table = {}
    for poem in catalogue.poems():
        n = poem.number
        length = kimariji.static_kimariji(n)
        chain = []
        for clip in voice.reading_clips("competitive", n, None, pace):
            if clip.part != "kami" or clip.first_kana >= length:
                continue
            after = length - clip.first_kana  # the kana after the deciding one, in this clip
            end = clip.onsets[after] if after < len(clip.onsets) else clip.duration
            chain.append([static(clip.file), clip.start, end])
        table[str(n)] = chain
    return table
