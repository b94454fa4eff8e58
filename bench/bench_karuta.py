"""CPU-vs-CPU competitive karuta: games per second through the engine and in the simulator.

Run from the repository root:  .venv/bin/python bench/bench_karuta.py [--games N] [--seed S]
Plays the same level pairs both ways: through the real engine and CPU policy
(`games.karuta.simulate`), and vectorised in NumPy (`games.karuta.sim`), and prints both
rates and their ratio. Prints figures; asserts nothing (docs/architecture.md §6).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

import numpy as np  # noqa: E402

from games.karuta import cpu, engine, sim, simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games through the engine")
    parser.add_argument("--sim-games", type=int, default=20_000, help="games in the simulator")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = cpu.LEVEL_ORDER
    pairs = [(g % 5, (g // 5) % 5) for g in range(max(args.games, args.sim_games))]

    simulate.play(("futsu", "futsu"), seed=0)  # warm the caches
    readings = 0
    started = time.perf_counter()
    for g in range(args.games):
        a, b = pairs[g]
        final = simulate.play((levels[a], levels[b]), seed=args.seed * 1_000_003 + g)
        readings += len(final["read"])
    engine_s = time.perf_counter() - started
    engine_rate = args.games / engine_s
    print(f"engine:    {args.games} games in {engine_s:.2f} s = {engine_rate:.1f} games/s")
    print(f"           {readings / engine_s:.0f} readings/s, {readings / args.games:.1f} per game")

    seats = np.array(pairs[: args.sim_games])
    sim.play_many(seats[:100], seed=0)  # build the poem tables
    started = time.perf_counter()
    out = sim.play_many(seats, seed=args.seed)
    sim_s = time.perf_counter() - started
    sim_rate = args.sim_games / sim_s
    print(f"simulator: {args.sim_games} games in {sim_s:.2f} s = {sim_rate:.0f} games/s")
    print(f"           {out.readings[:, 0].mean():.1f} readings per game")
    print(f"ratio:     {sim_rate / engine_rate:.1f}× the engine path")

    state = engine.new_state(simulate.LADDER_SETTINGS, [{}, {}], 1)
    n = 2000
    started = time.perf_counter()
    for _ in range(n):
        engine.view(state, 0)
    print(f"view():    {(time.perf_counter() - started) / n * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
