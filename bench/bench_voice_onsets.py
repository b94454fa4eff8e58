#!/usr/bin/env python3
"""The reading voice as heard (issue 43 §1): over the committed clips of every pace, how late
each kana's sound begins to be heard after its scheduled time, and how far the pitch jumps
at the seams between upper-verse clips against a mora boundary inside one take. Prints
figures; asserts nothing (the goals are not met today: see docs/voice.md "Known gaps").

  .venv/bin/python bench/bench_voice_onsets.py            # every pace (needs ffmpeg)
  options: --pace standard --worst 8

Definitions:
- Audible onset: the clip decoded by FFmpeg (24 kHz mono), cut into 5 ms frames from the
  clip's start; a kana's span runs from its manifest onset to the next kana's (or the clip's
  end); its onset is heard at the first frame of the span whose RMS is within 10 dB of the
  span's loudest frame (so a plosive counts from its burst). Lateness: that frame's start
  minus the scheduled onset (ms).
- Pitch: autocorrelation over a 40 ms window, 70-450 Hz, voiced where the normalised
  peak is over 0.6 and the window is within 30 dB of the clip's top. A jump across a
  boundary: |12 log2(f0 after / f0 before)| between the nearest voiced windows centred
  25-70 ms before and after it (5 ms steps; the two sides' windows never overlap).
  Seams: where one upper-verse clip hands over to the next (a shared synthesis to
  another), measured on the two clips as played (before: the earlier clip up to the seam;
  after: the next clip). Inside a take: every kana onset inside one clip, measured the same way.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

RATE = 24000
FRAME = RATE // 200  # 5 ms
WINDOW = RATE // 25  # 40 ms
SEARCH_MS = 50


def decode(path: Path) -> np.ndarray:
    raw = subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-i",
            str(path),
            "-f",
            "f32le",
            "-ac",
            "1",
            "-ar",
            str(RATE),
            "-",
        ],
        check=True,
        capture_output=True,
    ).stdout
    return np.frombuffer(raw, dtype=np.float32)


def frame_db(audio: np.ndarray) -> np.ndarray:
    n = len(audio) // FRAME
    frames = audio[: n * FRAME].reshape(n, FRAME).astype(np.float64)
    return 10 * np.log10(np.mean(frames**2, axis=1) + 1e-12)


def onset_lateness(audio: np.ndarray, onsets: list[int]) -> list[float]:
    db = frame_db(audio)
    ends = [*onsets[1:], len(db) * 5]
    late = []
    for start, end in zip(onsets, ends, strict=True):
        a, b = start // 5, max(start // 5 + 1, min(len(db), end // 5))
        span = db[a:b]
        if not len(span):
            continue
        first = int(np.argmax(span >= span.max() - 10))
        late.append((a + first) * 5 - start)
    return late


def f0_at(audio: np.ndarray, centre_ms: float, top_db: float) -> float | None:
    """f0 (Hz) of the 40 ms window centred at `centre_ms`, None where unvoiced."""
    centre = int(centre_ms * RATE / 1000)
    seg = audio[centre - WINDOW // 2 : centre + WINDOW // 2].astype(np.float64)
    if centre < WINDOW // 2 or len(seg) < WINDOW:
        return None
    if 10 * np.log10(np.mean(seg**2) + 1e-12) < top_db - 30:
        return None
    seg = seg - seg.mean()
    lo, hi = RATE // 450, RATE // 70
    corr = np.array([np.dot(seg[: len(seg) - k], seg[k:]) for k in range(hi + 1)])
    if corr[0] <= 0:
        return None
    corr = corr / corr[0]
    lag = lo + int(np.argmax(corr[lo:hi]))
    return RATE / lag if corr[lag] > 0.6 else None


def voiced_near(audio: np.ndarray, top_db: float, at_ms: float, step: int) -> float | None:
    """The f0 of the first voiced window from 25 ms off `at_ms` outward (step -1: before
    it, +1: after it), up to SEARCH_MS: the windows on the two sides do not overlap."""
    for off in range(25, 25 + SEARCH_MS, 5):
        if (f := f0_at(audio, at_ms + step * off, top_db)) is not None:
            return f
    return None


def jump(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else abs(12 * np.log2(after / before))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", action="append", help="a pace (default: every voiced one)")
    parser.add_argument("--worst", type=int, default=5)
    args = parser.parse_args()
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from games.karuta import voice
    from poems import catalogue

    built = voice.manifest()
    static = ROOT / "static"
    for pace in args.pace or sorted(built["paces"]):
        entries = built["paces"][pace]
        audio = {}
        late: list[tuple[float, str, int]] = []
        for key, entry in sorted(entries.items()):
            audio[entry["id"]] = clip = decode(static / entry["file"])
            for i, ms in enumerate(onset_lateness(clip, entry.get("onsets") or [0])):
                late.append((ms, key, i))
        top = {cid: frame_db(a).max() for cid, a in audio.items()}
        inside, seams = [], []
        for entry in entries.values():
            cid = entry["id"]
            for onset in (entry.get("onsets") or [])[1:]:
                before = voiced_near(audio[cid], top[cid], onset, -1)
                if (j := jump(before, voiced_near(audio[cid], top[cid], onset, +1))) is not None:
                    inside.append(j)
        for poem in range(1, catalogue.POEM_COUNT + 1):
            kami = [
                c for c in voice.reading_clips("chirashi", poem, None, pace) if c.part == "kami"
            ]
            for a, b in itertools.pairwise(kami):
                seam = b.start - a.start  # on a's own time
                before = voiced_near(audio[a.id], top[a.id], seam, -1)
                if (j := jump(before, voiced_near(audio[b.id], top[b.id], 0, +1))) is not None:
                    seams.append((j, poem, b.first_kana))
        ms = [x[0] for x in late]
        over = sum(m > 20 for m in ms)
        print(f"{pace}: {len(entries)} clips, {len(ms)} kana")
        print(
            f"  audible onset after its time (ms): median {statistics.median(ms):.0f}, "
            f"p95 {pct(ms, 0.95):.0f}, max {max(ms):.0f}; "
            f"over 20 ms: {over} ({100 * over / len(ms):.0f} %)"
        )
        for value, key, i in sorted(late, reverse=True)[: args.worst]:
            print(f"    {value:5.0f} ms  {key} kana {i}")
        s = [x[0] for x in seams]
        print(
            f"  pitch jump (semitones) at {len(s)} seams: median {statistics.median(s):.2f}, "
            f"p95 {pct(s, 0.95):.2f}, max {max(s):.2f}; inside a take at {len(inside)} kana "
            f"boundaries: median {statistics.median(inside):.2f}, p95 {pct(inside, 0.95):.2f}"
        )
        worst = sorted(seams, reverse=True)[: args.worst]
        print("    worst seams: " + ", ".join(f"{j:.1f} (poem {p}, kana {k})" for j, p, k in worst))


if __name__ == "__main__":
    main()
