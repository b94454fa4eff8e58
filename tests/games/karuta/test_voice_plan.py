"""The reading voice's split (games/karuta/voice): clips follow the trie of the pronounced
upper verses, so nothing a client holds before a poem's deciding kana tells it from a rival;
and every clip sits where reading.py puts its kana."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from games.karuta import reading, voice
from games.karuta.cpu import shared_beginning
from games.karuta.voice import plan
from poems import kimariji

PACES = sorted(voice.PACES)


def rival_pairs():
    """Every pair of poems whose pronounced upper verses begin alike, with the shared length."""
    return [
        (a, b, k)
        for a in range(1, 101)
        for b in range(a + 1, 101)
        if (k := shared_beginning(a, b)) > 0
    ]


def leaks(clips_of, pairs) -> list[str]:
    """Where two rivals' clips differ before they do: the clips starting before the first
    kana that tells them apart must be the same clips (id, file, start), in the same order."""
    found = []
    for a, b, k in pairs:
        early_a = [(c.id, c.file, c.start, c.first_kana) for c in clips_of(a) if c.first_kana < k]
        early_b = [(c.id, c.file, c.start, c.first_kana) for c in clips_of(b) if c.first_kana < k]
        if early_a != early_b:
            found.append(f"{a}/{b} (share {k})")
    return found


def kami(pace):
    return lambda n: [
        c for c in voice.reading_clips("competitive", n, 50, pace) if c.part == "kami"
    ]


def test_there_are_rivals_to_check():
    pairs = rival_pairs()
    assert len(pairs) > 100
    assert max(k for _, _, k in pairs) == 5  # あさぼらけ, きみがため, …


@pytest.mark.parametrize("pace", PACES)
def test_rivals_share_every_clip_before_they_diverge(pace):
    assert leaks(kami(pace), rival_pairs()) == []


def test_a_per_poem_clip_before_the_deciding_kana_is_caught(monkeypatch):
    """The check can fail: one poem given a clip of its own for its first kana."""
    real = voice.reading_clips

    def tampered(mode, poem, prev, pace, lower_reads=1):
        clips = real(mode, poem, prev, pace, lower_reads)
        if poem == 1:  # あきのたの: its first clip, あ, made its own
            i = next(i for i, c in enumerate(clips) if c.part == "kami")
            clips[i] = dataclasses.replace(clips[i], id="own", file="karuta/voice/own.mp3")
        return clips

    monkeypatch.setattr(voice, "reading_clips", tampered)
    assert leaks(kami("standard"), rival_pairs()) != []


def test_dynamic_rivals_share_their_clips_too():
    """With poems read, the deciding kana comes sooner; each clip released before it is
    still one that every unread poem with that beginning plays."""
    rng = random.Random(23)
    clips_of = kami("fast")
    for _ in range(20):
        read = set(rng.sample(range(1, 101), rng.randint(0, 90)))
        unread = [n for n in range(1, 101) if n not in read]
        for a in unread:
            deciding = kimariji.dynamic_kimariji(a, read) - 1
            early = [c for c in clips_of(a) if c.first_kana < deciding]
            for b in unread:
                if b != a and shared_beginning(a, b) >= deciding:
                    assert early == [c for c in clips_of(b) if c.first_kana < deciding]


def test_the_first_clip_of_a_poem_never_spans_its_deciding_kana_if_it_has_rivals():
    for pace in PACES:
        for n, segments in plan.upper_segments(pace).items():
            deciding = kimariji.static_kimariji(n) - 1
            for segment in segments[:-1]:
                assert segment.stop <= deciding, (n, segment.key)
            assert segments[-1].first <= deciding


@pytest.mark.parametrize("pace", PACES)
def test_clips_sit_on_the_schedules_kana_times(pace):
    """Every printed kana is voiced exactly once, at reading.py's time (a clip begins its
    lead-in before its first kana: the consonants sound before the kana's time)."""
    for mode, lower_reads in (("competitive", 1), ("chirashi", 2)):
        for poem in range(1, 101):
            prev = 0 if poem == 1 else poem - 1
            timetable = reading.schedule(mode, poem, prev, pace, 1, lower_reads)
            clips = voice.reading_clips(mode, poem, prev, pace, lower_reads)
            heard = {}
            for clip in clips:
                for i, onset in enumerate(clip.onsets):
                    heard.setdefault(clip.part, []).append(
                        (clip.first_kana + i, clip.start + onset)
                    )
            assert [t for _, t in heard["kami"]] == timetable["kami"]["t"]
            assert [i for i, _ in heard["kami"]] == list(range(len(timetable["kami"]["t"])))
            if mode == "chirashi":
                assert [t for _, t in heard["shimo_read"]] == timetable["shimo"]["t"]
                shift = timetable["shimo"]["again"]["start"] - timetable["shimo"]["t"][0]
                assert [t - shift for _, t in heard["shimo_again"]] == timetable["shimo"]["t"]
            pre = {seg["part"]: seg for seg in timetable["preamble"]}
            for part in ("joka", "joka_shimo", "shimo"):
                if part in pre:
                    (clip,) = [c for c in clips if c.part == part]
                    assert clip.start + clip.onsets[0] == pre[part]["start"]
                    assert clip.onsets[0] == plan.lead_in_ms(reading.unit_ms(pace))
                    assert clip.start + clip.duration <= pre[part]["end"]


@pytest.mark.parametrize("pace", PACES)
def test_clips_follow_each_other_without_overlap_beyond_the_crossfade(pace):
    for poem in range(1, 101):
        clips = [c for c in voice.reading_clips("solo", poem, None, pace) if c.part == "kami"]
        for before, after in itertools.pairwise(clips):
            assert before.start + before.duration <= after.start + plan.CROSSFADE_MS
        end = reading.kami_end(poem, pace)
        assert clips[-1].start + clips[-1].duration <= end


def test_unvoiced_pace_is_a_key_error():
    with pytest.raises(KeyError):
        voice.reading_clips("competitive", 1, 0, 9.5)
    with pytest.raises(KeyError):
        voice.reading_clips("competitive", 1, 0, "glacial")


def _verse(text: str) -> plan.Verse:
    phrases = tuple(text.split())
    return plan.Verse(phrases, tuple("".join(phrases)))


def test_split_at_branching_points_of_made_up_verses():
    verses = {1: _verse("あいう えお"), 2: _verse("あいか きく"), 3: _verse("さし すせ")}
    split = plan.split_upper(verses, 200)
    assert split[1] == [(1, 0, 2), (1, 2, 5)]
    assert split[2] == [(1, 0, 2), (2, 2, 5)]
    assert split[3] == [(3, 0, 4)]


def test_a_shared_kana_that_ends_a_phrase_in_one_verse_only_is_not_held():
    """あいう|えお and あいうか: they share あいう at the same times, but う ends a phrase in
    one; the shared clip must voice う the same way in both, so neither holds it."""
    verses = {1: _verse("あいう えお"), 2: _verse("あいうか くけ")}
    split = plan.split_upper(verses, 200)
    assert split[1][0] == split[2][0] == (1, 0, 3)
    short = plan._short_kana(verses, split)
    assert short == {1: {2}, 2: {2}}
    assert plan.voicing(verses[1], 200, short[1])[2] == 200
    assert plan.voicing(verses[1], 200)[2] == 200 + 300  # held when nothing is shared
    # Where they differ in time, they differ in the trie: あい|う vs あいう|.
    timed = {1: _verse("あい うえお"), 2: _verse("あいう かき")}
    assert plan.split_upper(timed, 200)[1][0] == (1, 0, 2)
