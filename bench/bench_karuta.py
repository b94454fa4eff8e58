"""CPU-vs-CPU competitive karuta through the real engine and CPU policy: games per second.

Run from the repository root:  .venv/bin/python bench/bench_karuta.py [--games N] [--seed S]
Prints figures; asserts nothing (DESIGN.md §6).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

from games.karuta import cpu, engine, simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = cpu.LEVEL_ORDER
    simulate.play(("futsu", "futsu"), seed=0)  # warm the caches
    readings = 0
    started = time.perf_counter()
    for g in range(args.games):
        pair = (levels[g % 5], levels[(g // 5) % 5])
        final = simulate.play(pair, seed=args.seed * 1_000_003 + g)
        readings += len(final["read"])
    seconds = time.perf_counter() - started
    print(f"{args.games} competitive CPU-vs-CPU games in {seconds:.2f} s")
    print(f"  {args.games / seconds:.1f} games/s, {readings / seconds:.0f} readings/s")
    print(f"  {readings / args.games:.1f} readings per game")
    state = engine.new_state(simulate.LADDER_SETTINGS, [{}, {}], 1)
    n = 2000
    started = time.perf_counter()
    for _ in range(n):
        engine.view(state, 0)
    print(f"  view(): {(time.perf_counter() - started) / n * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
