"""Bozu Mekuri: the NumPy simulator against the pure engine, in one run.

    /work/main/.venv/bin/python bench/bench_bozu.py [--games 5000] [--big 200000]

Both play the same number of whole games under the same rules (default: 4 players,
default rules) and the script prints games per second for each and their ratio; then it
times the simulator alone on --big games (the goal: 200,000 four-player games in under
1 s), three times. A benchmark, not a test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

from games.bozu import engine, sim  # noqa: E402
from games.bozu.rules import Rules  # noqa: E402


def time_engine(rules: Rules, games: int, seed: int) -> float:
    started = time.perf_counter()
    for index in range(games):
        engine.play_out(engine.deal(rules, seed + index))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5_000, help="games for both (default 5000)")
    parser.add_argument("--big", type=int, default=200_000, help="simulator-only games")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules(players=args.players)

    sim.simulate(rules, 1_000, args.seed)  # warm up NumPy before timing
    engine_seconds = time_engine(rules, args.games, args.seed)
    sim_seconds = sim.simulate(rules, args.games, args.seed).seconds
    engine_rate = args.games / engine_seconds
    sim_rate = args.games / sim_seconds
    print(f"Bozu Mekuri, {rules.to_settings()}, {args.games:,} games each")
    print(f"  pure engine : {engine_seconds:8.3f} s  {engine_rate:12,.0f} games/s")
    print(f"  simulator   : {sim_seconds:8.3f} s  {sim_rate:12,.0f} games/s")
    print(f"  ratio       : simulator is {sim_rate / engine_rate:,.0f}x the engine")

    runs = [sim.simulate(rules, args.big, args.seed + run).seconds for run in range(3)]
    print(
        f"Simulator alone, {args.big:,} games, 3 runs: "
        + ", ".join(f"{s:.3f} s" for s in runs)
        + f" (median {statistics.median(runs):.3f} s, "
        f"{args.big / statistics.median(runs):,.0f} games/s; goal: under 1 s for 200,000)"
    )


if __name__ == "__main__":
    main()
