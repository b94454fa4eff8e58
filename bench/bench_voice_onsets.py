#!/usr/bin/env python3
"""The reading voice as heard (issue 43 §1): over the committed clips of every pace, how far
from its scheduled time each kana's sound begins to be heard, and how far the pitch jumps
at the seams between upper-verse clips against a kana boundary inside one take. Prints
figures; asserts nothing (tests/games/karuta/test_voice_heard.py holds the goals).

  .venv/bin/python bench/bench_voice_onsets.py            # every pace (needs ffmpeg)
  options: --pace standard --worst 8

Definitions: games/karuta/voice/heard.py (a kana is heard from the first 5 ms frame of its
own sound within 10 dB of that sound's loudest; pitch by autocorrelation, a jump taken
between voiced windows 25-70 ms either side of a boundary). Seams: where one upper-verse
clip hands over to the next (a shared synthesis to another), measured on the two clips as
played. Inside a take: every kana's time inside one clip, measured the same way.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", action="append", help="a pace (default: every voiced one)")
    parser.add_argument("--worst", type=int, default=5)
    args = parser.parse_args()
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from games.karuta import voice
    from games.karuta.voice import build, heard

    built = voice.manifest()
    static = ROOT / "static"
    for pace in args.pace or sorted(built["paces"]):
        entries = built["paces"][pace]
        ids = sorted({e["id"]: e["file"] for e in entries.values()}.items())
        decoded = build.decode_files([static / f for _, f in ids])
        m = heard.measure_pace(
            pace, entries, {i: a for (i, _), a in zip(ids, decoded, strict=True)}
        )
        ms = [x[2] for x in m["late"]]
        off = [abs(x) for x in ms]
        over = sum(x > 20 for x in off)
        print(f"{pace}: {len(entries)} clips, {len(ms)} kana")
        print(
            f"  heard after its time (ms, − early): median {statistics.median(ms):.0f}; "
            f"|off| median {statistics.median(off):.0f}, p95 {heard.pct(off, 0.95):.0f}, "
            f"max {max(off):.0f}; over 20 ms: {over} ({100 * over / len(ms):.1f} %)"
        )
        for key, i, value in sorted(m["late"], key=lambda x: -abs(x[2]))[: args.worst]:
            print(f"    {value:5.0f} ms  {key} kana {i}")
        s, inside = [x[2] for x in m["seams"]], m["inside"]
        print(
            f"  pitch jump (semitones) at {len(s)} seams: median {statistics.median(s):.2f}, "
            f"p95 {heard.pct(s, 0.95):.2f}, max {max(s):.2f}; inside a take at {len(inside)} "
            f"kana boundaries: median {statistics.median(inside):.2f}, "
            f"p95 {heard.pct(inside, 0.95):.2f}"
        )
        worst = sorted(m["seams"], key=lambda x: -x[2])[: args.worst]
        print("    worst seams: " + ", ".join(f"{j:.2f} (poem {p}, kana {k})" for p, k, j in worst))


if __name__ == "__main__":
    main()
