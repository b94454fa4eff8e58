"""The voice as a listener gets it, measured (issue 43 §1): where each kana begins to be
heard, and how far the pitch jumps across a boundary. Pure numpy, no Django.

Used by the build (to move each kana onto its time), by the tests over the committed clips
and by `bench/bench_voice_onsets.py`. Audio is mono float at RATE (24 kHz).

- **Heard.** A kana's own sound runs from its first phoneme (a consonant sounds before the
  kana's time, as a singer places it before the beat) to the end of its vowel, as the
  synthesizer placed them (the manifest's `sounds`). It is heard from the first 5 ms frame
  of that sound (frames counted from its start) whose level is within HEARD_WITHIN_DB of
  its loudest frame: a plosive's burst or a loud s counts from itself, a quiet consonant
  (m, r, a stop's closure) from the vowel it leads into. Frames that open the sound
  falling by DYING_DB or more before its loudest frame (the previous vowel dying away into
  this kana's closure) are the previous kana's, not this one's: the search then starts at
  the first frame that is not quieter than the one before it. Lateness: that frame's start less
  the kana's scheduled time (negative: heard early).
- **Pitch.** Autocorrelation over a 40 ms window, 70-450 Hz, voiced where the normalised
  peak is over 0.6 and the window within 30 dB of the clip's loudest 5 ms frame. A jump
  across a boundary: |12 log2(f0 after / f0 before)| between the nearest voiced windows
  centred 25-70 ms before and after it (5 ms steps; the two sides never overlap).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

RATE = 24000
PER_MS = RATE // 1000
FRAME = 5 * PER_MS  # 5 ms
WINDOW = RATE // 25  # 40 ms
HEARD_WITHIN_DB = 10
DYING_DB = 6  # an opening fall of at least this much is the previous sound dying away
LAG_LO, LAG_HI = RATE // 450, RATE // 70
VOICED_PEAK = 0.6
QUIET_DB = 30
NEAR_MS = range(25, 75, 5)  # window centres searched either side of a boundary


def frame_db(audio: np.ndarray) -> np.ndarray:
    """Level of each 5 ms frame from the first sample (dB re full scale)."""
    n = len(audio) // FRAME
    frames = np.asarray(audio[: n * FRAME], dtype=np.float64).reshape(n, FRAME)
    return 10 * np.log10(np.mean(frames**2, axis=1) + 1e-20)


def heard_at(audio: np.ndarray, start_ms: float, end_ms: float) -> float:
    """Where a sound spanning [start_ms, end_ms) of `audio` begins to be heard (ms)."""
    a = round(start_ms * PER_MS)
    b = max(a + FRAME, min(len(audio), round(end_ms * PER_MS)))
    x = np.asarray(audio[a:b], dtype=np.float64)
    n = max(1, -(-len(x) // FRAME))
    x = np.pad(x, (0, n * FRAME - len(x)))
    db = 10 * np.log10(np.mean(x.reshape(n, FRAME) ** 2, axis=1) + 1e-20)
    first = 0  # the previous sound dying away into this one (a vowel into a closure) is not it
    while first + 1 < n and db[first + 1] < db[first]:
        first += 1
    if db[0] - db[first] < DYING_DB or int(np.argmax(db)) < first:
        first = 0  # a level opening (a nasal, an r), or a kana that is all a fall, is itself
    return a / PER_MS + 5 * (first + int(np.argmax(db[first:] >= db.max() - HEARD_WITHIN_DB)))


def lateness(
    audio: np.ndarray, onsets: Sequence[float], sounds: Sequence[Sequence[float]]
) -> list[float]:
    """Per kana, ms from its time (`onsets`, on `audio`'s clock) to where it is heard."""
    return [heard_at(audio, a, b) - t for t, (a, b) in zip(onsets, sounds, strict=True)]


def f0_many(audio: np.ndarray, centres_ms: Sequence[float], top_db: float) -> np.ndarray:
    """f0 (Hz) of the 40 ms window centred at each of `centres_ms`; nan where unvoiced,
    quiet or not wholly inside the clip."""
    out = np.full(len(centres_ms), np.nan)
    centres = np.round(np.asarray(centres_ms, dtype=np.float64) * PER_MS).astype(int)
    ok = (centres >= WINDOW // 2) & (centres + WINDOW // 2 <= len(audio))
    if not ok.any():
        return out
    idx = centres[ok][:, None] + np.arange(-(WINDOW // 2), WINDOW // 2)[None, :]
    seg = np.asarray(audio, dtype=np.float64)[idx]
    loud = 10 * np.log10(np.mean(seg**2, axis=1) + 1e-12) >= top_db - QUIET_DB
    seg = seg - seg.mean(axis=1, keepdims=True)
    spec = np.fft.rfft(seg, n=2 * WINDOW, axis=1)
    corr = np.fft.irfft(spec * np.conj(spec), axis=1)[:, : LAG_HI + 1]
    f0 = np.full(len(seg), np.nan)
    live = loud & (corr[:, 0] > 0)
    norm = corr[live] / corr[live, :1]
    lag = LAG_LO + np.argmax(norm[:, LAG_LO:LAG_HI], axis=1)
    peak = norm[np.arange(len(norm)), lag]
    f0[np.flatnonzero(live)] = np.where(peak > VOICED_PEAK, RATE / lag, np.nan)
    out[np.flatnonzero(ok)] = f0
    return out


def jumps(
    before: np.ndarray, at_before: Sequence[float], after: np.ndarray, at_after: Sequence[float]
) -> list[float]:
    """Pitch jumps (semitones) across boundaries: the i-th at `at_before[i]` on `before`'s
    clock and `at_after[i]` on `after`'s (the same audio for a boundary inside a take).
    Boundaries without a voiced window on either side are left out."""
    if not len(at_before):
        return []
    offs = np.array(NEAR_MS, dtype=np.float64)
    b_f0 = f0_many(before, (np.asarray(at_before)[:, None] - offs).ravel(), frame_db(before).max())
    a_f0 = f0_many(after, (np.asarray(at_after)[:, None] + offs).ravel(), frame_db(after).max())
    out = []
    for bs, as_ in zip(b_f0.reshape(-1, len(offs)), a_f0.reshape(-1, len(offs)), strict=True):
        bv, av = bs[~np.isnan(bs)], as_[~np.isnan(as_)]
        if len(bv) and len(av):
            out.append(abs(12 * np.log2(av[0] / bv[0])))
    return out


def pct(values: Sequence[float], q: float) -> float:
    """The q-quantile by rank (no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_pace(pace: str, entries: dict, audio: dict[str, np.ndarray]) -> dict:
    """Over every clip of a pace (manifest `entries`, decoded `audio` by clip id): each
    kana's lateness (key, kana, ms), the pitch jumps at every upper-verse seam (poem,
    first kana after it, semitones) and at every kana boundary inside a clip."""
    from games.karuta import voice
    from poems import catalogue

    late, inside, seams = [], [], []
    for key, entry in sorted(entries.items()):
        clip = audio[entry["id"]]
        # A clip built before the manifest named each kana's sound: to the next kana's time.
        ends = [*entry["onsets"][1:], len(clip) / PER_MS]
        sounds = entry.get("sounds") or list(zip(entry["onsets"], ends, strict=True))
        for i, ms in enumerate(lateness(clip, entry["onsets"], sounds)):
            late.append((key, i, ms))
        bounds = entry["onsets"][1:]
        inside += jumps(clip, bounds, clip, bounds)
    for poem in range(1, catalogue.POEM_COUNT + 1):
        kami = [c for c in voice.reading_clips("chirashi", poem, None, pace) if c.part == "kami"]
        for a, b in itertools.pairwise(kami):
            got = jumps(audio[a.id], [b.start - a.start], audio[b.id], [0])
            seams += [(poem, b.first_kana, j) for j in got]
    return {"late": late, "inside": inside, "seams": seams}
