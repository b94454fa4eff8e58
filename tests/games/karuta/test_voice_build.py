"""The built reading voice (static/karuta/voice, games/karuta/voice/manifest.json): placed
where reading.py puts each kana, named by its bytes, within budget, and audio that sounds
finished — one loudness, headroom, no click at a seam, no silence where a kana is voiced.

Tests marked `voice` decode the clips (ffmpeg) or rebuild them (the optional synthesizer);
they skip where it is missing and so fail in CI (tests/conftest.py)."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest

from games.karuta import reading, voice
from games.karuta.voice import build, heard, plan

PACES = sorted(voice.PACES)
RATE = build.RATE
PER_MS = RATE // 1000
MANIFEST = voice.manifest()


def entry(pace: str, segment: plan.Segment) -> dict:
    return MANIFEST["paces"][pace][segment.key]


def test_the_voice_is_built_and_committed():
    assert voice.available()
    assert set(MANIFEST["paces"]) == set(PACES)
    for pace in PACES:
        assert set(MANIFEST["paces"][pace]) == set(plan.all_segments(pace))


def test_clip_names_are_the_hash_of_their_bytes():
    """So one id is one content: rivals given the same id are given the same bytes."""
    for entries in MANIFEST["paces"].values():
        for e in entries.values():
            data = (voice.STATIC_DIR / e["file"]).read_bytes()
            assert hashlib.sha256(data).hexdigest()[:24] == e["id"]
            assert e["file"] == f"{voice.CLIP_DIR}/{e['id']}.mp3"


def test_every_voiced_pace_fits_the_budget():
    files = {e["file"] for c in MANIFEST["paces"].values() for e in c.values()}
    total = sum((voice.STATIC_DIR / f).stat().st_size for f in files)
    assert total <= 12 * 2**20, total
    on_disk = {p.name for p in (voice.STATIC_DIR / voice.CLIP_DIR).glob("*.mp3")}
    assert on_disk == {f.rsplit("/", 1)[1] for f in files}  # no stale clip is shipped


@pytest.mark.parametrize("pace", PACES)
def test_synthesized_onsets_are_the_schedules_kana_times(pace):
    """The manifest's kana times, for every kana of every reading, within 5 ms of
    reading.py's (each kana's sound is placed around its time: `sounds`, and
    test_every_kana_is_heard_on_its_time)."""
    worst = 0
    for poem in range(1, 101):
        timetable = reading.schedule("chirashi", poem, poem % 100 + 1, pace, 1)
        parts = {"kami": timetable["kami"]["t"], "shimo_read": timetable["shimo"]["t"]}
        pre = {s["part"]: s for s in timetable["preamble"]}
        lower = plan.lower_segment(pre["shimo"]["poem"], pace)
        parts["shimo"] = [pre["shimo"]["start"] + t for t in lower.take.onsets]
        heard: dict[str, list[int]] = {}
        for clip in voice.reading_clips("chirashi", poem, poem % 100 + 1, pace):
            onsets = MANIFEST["paces"][pace]
            built = next(e for e in onsets.values() if e["id"] == clip.id)["onsets"]
            heard.setdefault(clip.part, []).extend(clip.start + t for t in built)
        for part, times in parts.items():
            assert len(heard[part]) == len(times)
            worst = max(worst, *(abs(a - b) for a, b in zip(heard[part], times, strict=True)))
    joka, joka_shimo = plan.joka_segments(pace)
    for segment in (joka, joka_shimo):
        built = entry(pace, segment)["onsets"]
        worst = max(worst, *(abs(a - b) for a, b in zip(built, segment.onsets, strict=True)))
    assert worst <= 5


@pytest.mark.parametrize("pace", PACES)
def test_each_take_lasts_its_imposed_durations(pace):
    """The synthesized take (lead + kana as voiced + tail) within one frame (5 ms)."""
    for segment in plan.all_segments(pace).values():
        imposed = 2 * build.LEAD_MS + segment.take.end
        assert abs(entry(pace, segment)["imposed_ms"] - imposed) <= build.FRAME_MS


@pytest.fixture(scope="module")
def decoded():
    """Every clip as decoded, by (pace, segment key)."""
    missing = build.synthesizer_missing()
    if missing:
        pytest.skip(missing)
    keys = [(pace, key) for pace in PACES for key in sorted(MANIFEST["paces"][pace])]
    paths = [voice.STATIC_DIR / MANIFEST["paces"][p][k]["file"] for p, k in keys]
    return dict(zip(keys, build.decode_files(paths), strict=True))


@pytest.mark.voice
def test_decoded_clips_last_their_duration(decoded):
    """decodeAudioData-like (gapless) length = the manifest's duration, to within one
    synthesis frame; a clip that joins the next lasts the plan's length, one that silence
    follows (a verse's last, a shared one ending on a held kana) at most that (trimmed)."""
    for (pace, key), samples in decoded.items():
        segment = plan.all_segments(pace)[key]
        duration = MANIFEST["paces"][pace][key]["duration"]
        assert abs(len(samples) - duration * PER_MS) <= build.FRAME_MS * PER_MS
        if not segment.ends_in_silence:
            assert duration == segment.length
        else:
            assert duration <= segment.length


@pytest.mark.voice
def test_every_clip_has_one_loudness_and_headroom(decoded):
    target = MANIFEST["format"]["loudness_lufs"]
    worst_lu, worst_peak = 0.0, -100.0
    for samples in decoded.values():
        worst_lu = max(worst_lu, abs(build.loudness(samples) - target))
        worst_peak = max(worst_peak, build.true_peak_db(samples))
    assert worst_lu <= 1.0
    assert worst_peak <= -1.0


def _rms_db(samples: np.ndarray) -> float:
    return 10 * np.log10(float(np.mean(samples**2)) + 1e-12)


def _frame_rms_db(samples: np.ndarray, step: int) -> np.ndarray:
    """_rms_db of each whole `step`-sample frame from the start, as the frames
    samples[i : i + step] for i in range(0, len(samples) - step, step), in one array
    operation (a Python loop over every frame of every clip took about a minute)."""
    count = max(0, -(-(len(samples) - step) // step))
    frames = samples[: count * step].reshape(count, step)
    return 10 * np.log10(np.mean(frames**2, axis=1) + 1e-12)


@pytest.mark.voice
def test_every_kana_is_heard(decoded):
    """Each kana's sound (its consonants, before its time, and its vowel: the manifest's
    `sounds`) carries sound: no gap where a kana should be (a devoiced mora, such as a
    verse-initial ふ "fU", is fed voiced, as a reader says it)."""
    for (pace, key), samples in decoded.items():
        for i, (a, b) in enumerate(MANIFEST["paces"][pace][key]["sounds"]):
            assert _rms_db(samples[a * PER_MS : b * PER_MS]) > -40, (pace, key, i)


@pytest.mark.voice
def test_no_clip_ends_in_silence(decoded):
    """A clip that silence follows — a verse's last, or a shared one ending on a held
    phrase-final kana (わたのはら|, きみがため|, あさぼらけ|) — ends with its last kana's
    sound (trailing silence trimmed): within its last 40 ms before the fade, some 5 ms is
    less than 38 dB under the clip's loudest (the build trims at 30 dB under its top; the
    MP3 codes a quiet tail quieter still)."""
    step = build.FRAME_MS * PER_MS
    shared = 0
    for (pace, key), samples in decoded.items():
        segment = plan.all_segments(pace)[key]
        if not segment.ends_in_silence:
            continue  # it joins the next clip (a crossfade): its end is mid-phrase
        shared += bool(segment.tail)
        frames = _frame_rms_db(samples, step)
        end = (MANIFEST["paces"][pace][key]["duration"] - build.FADE_MS) // build.FRAME_MS
        assert max(frames[end - 8 : end]) > max(frames) - 38, (pace, key)
    assert shared == 3 * len(PACES)  # the shared clips that end on a held kana are covered


def _jumps(samples: np.ndarray) -> np.ndarray:
    return np.abs(np.diff(samples))


@pytest.mark.voice
def test_no_click_at_any_seam(decoded):
    """Every upper verse mixed as the page plays it: at each seam, the sample-to-sample
    jump is no larger than the 99th percentile jump of the clips it joins, or than the
    voice's own steepest step in the 5 ms before the seam (a seam lies inside the previous
    kana's vowel, its lead-in before the next kana, where the voice itself is loud)."""
    for pace in PACES:
        for poem in range(1, 101):
            clips = [c for c in voice.reading_clips("solo", poem, None, pace) if c.part == "kami"]
            if len(clips) < 2:
                continue
            segments = {s.key: s for s in plan.upper_segments(pace)[poem]}
            by_id = {MANIFEST["paces"][pace][k]["id"]: k for k in segments}
            origin = -clips[0].start  # the first clip begins its lead-in before t = 0
            length = max(c.start + c.duration for c in clips) + origin
            mix = np.zeros((int(length) + build.FRAME_MS) * PER_MS)  # decoding may add < 1 frame
            for clip in clips:
                audio = decoded[(pace, by_id[clip.id])]
                a = (clip.start + origin) * PER_MS
                mix[a : a + len(audio)] += audio
            for before, after in itertools.pairwise(clips):
                own = np.concatenate(
                    [decoded[(pace, by_id[before.id])], decoded[(pace, by_id[after.id])]]
                )
                seam = (after.start + origin) * PER_MS
                local = _jumps(mix[seam - 5 * PER_MS : seam]).max()
                limit = max(np.percentile(_jumps(own), 99), local)
                jump = abs(mix[seam] - mix[seam - 1])
                assert jump <= limit, (pace, poem, after.first_kana)


@pytest.mark.voice
def test_rebuilding_one_poem_reproduces_the_committed_clips():
    """秋風に (79) plays あ and き cut from 秋の田の's take, then its own: rebuilt here, every
    entry and every byte equals what is committed."""
    missing = build.synthesizer_missing()
    if missing:
        pytest.skip(missing)
    built = build.build(["standard"], poem=79, log=lambda _: None)
    assert len(built["standard"]) == 4
    assert build.compare(built, MANIFEST) == []


@pytest.mark.voice
def test_a_faint_kana_is_lifted_smoothly_and_nothing_else_changes():
    """build.lift_faint on made-up audio: a kana heard 30 dB under its neighbours comes up
    to FAINT_BELOW_LU under the clip's loudness, nothing outside it changes, no jump is
    larger than the clip's own, and a clip with no faint kana is returned sample for sample."""
    pytest.importorskip(
        "pyloudnorm", reason="the voice group (requirements-voice.lock) measures loudness"
    )
    segment = plan.lower_segment(84, "slow")
    take, per_ms = segment.take, build.RATE // 1000
    length = segment.length * per_ms
    rng = np.random.default_rng(1)
    clip = 0.1 * np.sin(np.arange(length) * 2 * np.pi * 220 / build.RATE)
    clip += 0.001 * rng.standard_normal(length)
    assert np.array_equal(build.lift_faint(clip, segment, clip), clip)
    a = (take.onsets[segment.first + 1] - segment.begin) * per_ms
    b = a + take.voiced[segment.first + 1] * per_ms
    faint = clip.copy()
    faint[a:b] *= 10 ** (-30 / 20)
    lifted = build.lift_faint(faint, segment, faint)
    floor = build.loudness(faint) - build.FAINT_BELOW_LU
    span_db = 10 * np.log10(np.mean(lifted[a:b] ** 2))
    assert abs(span_db - floor) < 0.1
    assert np.array_equal(lifted[:a], faint[:a]) and np.array_equal(lifted[b:], faint[b:])
    assert np.abs(np.diff(lifted)).max() <= np.abs(np.diff(faint)).max()


@pytest.fixture(scope="module")
def heard_by_pace(decoded):
    """games/karuta/voice/heard.py's measures over every decoded clip, per pace."""
    out = {}
    for pace in PACES:
        entries = MANIFEST["paces"][pace]
        audio = {entries[key]["id"]: samples for (p, key), samples in decoded.items() if p == pace}
        out[pace] = heard.measure_pace(pace, entries, audio)
    return out


@pytest.mark.voice
def test_every_kana_is_heard_on_its_time(heard_by_pace):
    """Issue 43 §1: every kana of every clip of every pace begins to be heard (the first
    5 ms frame of its own sound within 10 dB of that sound's loudest, heard.py) within
    20 ms of its scheduled time, on the clips as decoded. The clips built before this
    (vowels after the kana's time) were heard a median 25-45 ms late, 54-71 % over 20 ms."""
    for pace, measured in heard_by_pace.items():
        assert len(measured["late"]) > 2900, pace  # every kana of the pace's clips
        off = [(key, i, round(ms)) for key, i, ms in measured["late"] if abs(ms) > 20]
        assert off == [], (pace, len(off), off[:10])


# The pitch measure's step near the voice's level pitch (350 Hz): autocorrelation lags are
# whole samples at 24 kHz, 68 or 69 there, 0.25 semitone apart. Two jumps closer than one
# step cannot be told apart by it.
PITCH_STEP_ST = 12 * np.log2(69 / 68)


@pytest.mark.voice
def test_no_seam_jumps_more_than_the_voice_inside_a_take(heard_by_pace):
    """Issue 43 §1: the pitch jump where one upper-verse clip hands over to the next (a
    shared synthesis to a poem's own) is no larger than the voice's own between kana inside
    one take, within the measure's step: median and 95th percentile, every seam, every
    pace. The clips before (read speech, each take its own contour) jumped a median
    2.4-3.9 semitones at the seams against 0.9-1.4 inside (95th percentiles 5.2-6.7 against
    3.8-5.4); with the level recitation both are within a step of 0."""
    for pace, measured in heard_by_pace.items():
        seams = [j for _, _, j in measured["seams"]]
        inside = measured["inside"]
        assert len(seams) > 100 and len(inside) > 2000, pace
        assert np.median(seams) <= np.median(inside) + PITCH_STEP_ST, pace
        assert heard.pct(seams, 0.95) <= heard.pct(inside, 0.95) + PITCH_STEP_ST, pace
