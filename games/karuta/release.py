"""The reading released just in time: a karuta view as a client may have it at a moment.
Pure Python, over the server's full view (`engine.view`); the platform calls `released`
for every frame it sends and `release_times` to know when to send the next one.

Times: `elapsed` is ms since the state began (the frame's `at`); the view's reading has
`t0`, ms from then to the reading's t = 0; `lead` is the platform's release lead
(MATCHES_RELEASE_LEAD_MS). At elapsed e the reading's clock reads e − t0, and:
- each kana of the reading (upper verse, then in chirashi and solo the lower verse) is
  there once its time minus the lead is reached: `kana` / `shimo.kana` hold
  [text, t, said] (`said`: the kana's sound in the upper verse; in the lower verse the
  phrase's sound on its first kana, "" on the others);
- the poem and what identifies it (`poem`, `kimariji`, `static_kimariji`, `decided`,
  the upper verse's `end`, `close`, the lower verse's `end` and `again`) once the deciding
  kana is (its time minus the lead);
- other seats' touches once their time is reached (no lead), and a seat counts as done
  (and leaves `to_act`) once the touch that finished it is;
- the reading voice's clips (`voice`: which clip plays when; docs/karuta-online.md):
  an upper-verse clip with its first kana (its time minus the lead), a lower-verse clip
  once the poem is known; the preamble's clips from the start; and `voice_next`, public
  clips to fetch ahead (while memorising, the 序歌 and every poem's opening clip; the
  clips that may follow those released, by the static trie; the read poem's lower verse
  once it is known).
What stays public from the start: the reading's number, the previous poem and the
preamble (already read), who is active or sits out, `unit` (the pace), `t0`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from games.karuta import options
from poems import catalogue

# Clip parts voicing what is public from the reading's start (already read, or always the same).
PREAMBLE_PARTS = frozenset({"joka", "joka_shimo", "shimo"})
# Clip parts voicing the read poem's lower verse: released once the poem is.
LOWER_PARTS = frozenset({"shimo_read", "shimo_again"})

# (mode, poem, prev, pace, lower_reads) -> the reading's clips in play order (voice.Clip-like).
ClipSource = Callable[[str, int, int | None, str, int], Sequence[Any]]


@cache
def _built() -> bool:
    """Whether the voice is built (checked once per process: it stats every clip file)."""
    from games.karuta import voice  # imported here: the views of games without it stay cheap

    return voice.available()


@cache
def _voice_clips(mode: str, poem: int, prev: int | None, pace: str, lower_reads: int) -> tuple:
    """The reading's clips from the built voice, () where there is none (an unvoiced pace,
    or the clips not built): the reading then goes on as text."""
    from games.karuta import voice

    if pace not in voice.PACES or not _built():
        return ()
    return tuple(voice.reading_clips(mode, poem, prev, pace, lower_reads))


def _clip_released(clip: Any, kami_t: Sequence[int], due: int, known: bool) -> bool:
    if clip.part in PREAMBLE_PARTS:
        return True
    if clip.part == "kami":
        return kami_t[clip.first_kana] <= due
    if clip.part in LOWER_PARTS:
        return known
    return False  # a part this module does not know is never sent


def voice(view: Mapping[str, Any], due: int, known: bool, clips_of: ClipSource) -> list[dict]:
    """The clips released when the reading's clock + the lead reads `due`, in play order."""
    r = view["reading"]
    pace = view["settings"].get("pace")
    if not isinstance(pace, str):
        return []  # a custom pace is not voiced
    lower_reads = options.lower_reads(view["settings"])
    clips = clips_of(options.reading_mode(view["mode"]), r["poem"], r["prev"], pace, lower_reads)
    return [
        {
            "id": clip.id,
            "file": clip.file,
            "part": clip.part,
            "start": clip.start,
            "duration": clip.duration,
            "onsets": list(clip.onsets),
        }
        for clip in clips
        if _clip_released(clip, r["kami"]["t"], due, known)
    ]


def _finished_at(r: Mapping[str, Any], mode: str, seat: int) -> int | None:
    """When a done seat's finishing touch was (None: it passed)."""
    mine = [(card, t) for s, card, t in r["touches"] if s == seat]
    on_poem = next((t for card, t in mine if card == r["poem"]), None)
    if on_poem is not None:
        return on_poem
    if mode == "chirashi" and mine:
        return mine[0][1]
    return None


def _shimo_said(poem: int) -> list[str]:
    """The lower verse's sound per printed kana: each phrase's sound on its first kana."""
    record = catalogue.poem(poem)
    said = []
    for phrase, sound in zip(record.shimo_kana.split(), record.shimo_said.split(), strict=True):
        said += [sound] + [""] * (len(phrase) - 1)
    return said


def _entry(clip: Any) -> dict[str, Any]:
    return {"id": clip.id, "file": clip.file, "part": clip.part}


@cache
def _uppers(mode: str, pace: str, clips_of: ClipSource) -> tuple[tuple[Any, ...], ...]:
    """Every poem's upper-verse clips, in order (the static trie, walked poem by poem)."""
    return tuple(
        tuple(c for c in clips_of(mode, poem, None, pace, 1) if c.part == "kami")
        for poem in range(1, catalogue.POEM_COUNT + 1)
    )


@cache
def following(mode: str, pace: str, clips_of: ClipSource, heard: tuple[str, ...]) -> list[dict]:
    """The clips that may follow the upper-verse clips `heard` (ids, in order): the next
    clip of every poem that begins with them — one list for all those poems, so fetching
    it tells no more than `heard` does."""
    found: dict[str, dict] = {}
    for clips in _uppers(mode, pace, clips_of):
        if len(clips) > len(heard) and tuple(c.id for c in clips[: len(heard)]) == heard:
            found.setdefault(clips[len(heard)].id, _entry(clips[len(heard)]))
    return [found[key] for key in sorted(found)]


def voice_next(view: Mapping[str, Any], due: int, known: bool, clips_of: ClipSource) -> list[dict]:
    """Public clips a page may fetch ahead, so none is late for its fetch (a clip is due a
    lead after it is named, too short over a slow link): while memorising, the 序歌 (always
    the same) and every poem's opening clip; during a reading, every clip that may follow
    the upper-verse clips released so far (`following`: before the first kana, every
    poem's opening clip); once the poem is known, its lower verse, which the next reading
    opens with the very moment its state begins (before any frame of it can arrive).
    `due`: the reading's clock plus the lead."""
    pace = view["settings"].get("pace")
    if not isinstance(pace, str):
        return []
    mode = options.reading_mode(view["mode"])  # genpei is read as competitive play
    r = view.get("reading")
    if r is None:
        if view["phase"] != "memorise":
            return []
        # What the first reading opens with, for a page to have decoded before it says
        # "ready": the 序歌 (competitive), then every poem's opening clip (the same list
        # whichever poem is read first, as before any reading's first kana).
        ahead = []
        if mode == "competitive":
            clips = clips_of(mode, 1, 0, pace, 1)  # any poem: only the preamble is kept
            ahead = [_entry(c) for c in clips if c.part in PREAMBLE_PARTS]
        return ahead + [dict(c) for c in following(mode, pace, clips_of, ())]
    # Before the first kana: every poem's opening clip; then whatever may follow the
    # clips released so far.
    heard = tuple(
        c.id
        for c in clips_of(mode, r["poem"], r["prev"], pace, 1)
        if c.part == "kami" and r["kami"]["t"][c.first_kana] <= due
    )
    ahead = [dict(c) for c in following(mode, pace, clips_of, heard)]
    if known:
        clips = clips_of(mode, r["poem"], r["poem"], pace, 1)
        ahead += [_entry(c) for c in clips if c.part in PREAMBLE_PARTS]
    return ahead


def released(
    view: Mapping[str, Any], elapsed: int, lead: int, clips_of: ClipSource = _voice_clips
) -> dict[str, Any]:
    """The view as released `elapsed` ms after its state began (`clips_of`: where the
    reading's voice clips come from; tests pass a fake)."""
    r = view.get("reading")
    if r is None:
        shown = dict(view)
        shown["voice_next"] = voice_next(view, 0, False, clips_of)
        return shown
    now = elapsed - r["t0"]
    due = now + lead  # what is due by then is sent now
    known = r["decided"] <= due
    kami = r["kami"]
    done = [s for s in r["done"] if (t := _finished_at(r, view["mode"], s)) is None or t <= now]
    out: dict[str, Any] = {
        "number": r["number"],
        "prev": r["prev"],
        "active": r["active"][:],
        "sitting_out": r["sitting_out"][:],
        "done": done,
        "touches": [touch[:] for touch in r["touches"] if touch[2] <= now],
        "t0": r["t0"],
        "unit": r["unit"],
        "preamble": [dict(seg) for seg in r["preamble"]],
        "kana": [
            [text, t, said]
            for text, t, said in zip(kami["kana"], kami["t"], kami["said"], strict=True)
            if t <= due
        ],
        "poem": r["poem"] if known else None,
        "kimariji": r["kimariji"] if known else None,
        "static_kimariji": r["static_kimariji"] if known else None,
        "decided": r["decided"] if known else None,
        "end": kami["end"] if known else None,
        "close": r["close"] if known else None,
        "shimo": None,
        "voice": voice(view, due, known, clips_of),
    }
    shimo = r.get("shimo")
    if shimo is not None:
        said = _shimo_said(r["poem"])
        out["shimo"] = {
            "kana": [
                [text, t, sound]
                for text, t, sound in zip(shimo["kana"], shimo["t"], said, strict=True)
                if t <= due
            ],
            "end": shimo["end"] if known else None,
            "again": dict(shimo["again"]) if known and shimo["again"] else None,
        }
    shown = dict(view)
    shown["reading"] = out
    shown["voice_next"] = voice_next(view, due, known, clips_of)
    if view["phase"] == "reading":
        shown["to_act"] = [s for s in r["active"] if s not in done]
    return shown


def release_times(view: Mapping[str, Any], lead: int) -> list[int]:
    """Every moment (ms after the state began) at which `released` changes, sorted."""
    r = view.get("reading")
    if r is None:
        return []
    t0 = r["t0"]
    moments = {t - lead + t0 for t in r["kami"]["t"]}
    moments.add(r["decided"] - lead + t0)
    if r.get("shimo") is not None:
        moments |= {t - lead + t0 for t in r["shimo"]["t"]}
    moments |= {touch[2] + t0 for touch in r["touches"]}
    return sorted(moments)
