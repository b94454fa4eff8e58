"""Karuta fairness across connections (issue 18): who wins the contested cards when two
players with the same reaction times sit behind links of different delay?

Two scripted players (tests/support/karuta_racer.py: the websockets library, the
server's clock from ping/pong, tests/support/clocksync.py) play 2-seat chirashi friend
games against each other through a real daphne server started here. Each reaches it
through its own delaying proxy on loopback (tests/support/delay_proxy.py): "near"
(--near ms one way, each direction) and "far" (--far ms), both with 0..--jitter ms of
jitter per chunk, order kept as TCP would. Both always touch the read card, `reaction`
ms (normal, --mean/--sd, at least 150) after they see the deciding kana: at its due time
on their corrected clock, or when it arrived if that was later. Every reading is a race.

Conditions (one server each, the setting in its environment):
- corrected: the server judges by the corrected touch times (the issue's design) and
  sends each connection the reading --lead ms plus its measured one-way delay early
  (matches/timed.py), so a kana arrives the same lead before it is due on both links;
  "covering" runs it with a lead large enough for the far link by itself (--lead-covering:
  before the per-connection lead, a fixed 150 ms made the far player see every kana late);
- arrival: the server judges by arrival order (KARUTA_JUDGE=arrival), the bias
  the correction removes;
- control: both players on the near link (the harness itself must come out 50/50).

  .venv/bin/python bench/bench_karuta_fairness.py --races 2000 --parallel 12

Prints each condition's share of contested cards for each player, and a table. Asserts
nothing (docs/architecture.md §6).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
PY = sys.executable

from games.karuta.judge import REASONS  # noqa: E402
from tests.support.delay_proxy import Link  # noqa: E402
from tests.support.server import AsgiServer  # noqa: E402

# kserver's settings (docs/protocol.md; the note's Changes section).
LEAD_ENV = "MATCHES_RELEASE_LEAD_MS"
JUDGE_ENV = "KARUTA_JUDGE"


class Server(AsgiServer):
    """The tests' daphne launcher on a database of its own (the bench sets up no Django)."""

    def __init__(self, name: str, extra_env: dict[str, str]):
        super().__init__(extra_env=extra_env)
        self.var = ROOT / "var" / "bench" / f"karuta-fairness-{name}"
        self.log_path = self.var / "daphne.log"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for key in ("DATABASE_URL", "REDIS_URL", "CI"):
            env.pop(key, None)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            DJANGO_SETTINGS_MODULE="tests.fairness.server_settings",
            HTTPS="0",
            VAR_DIR=str(self.var),
            LOG_LEVEL="WARNING",
            **self.extra_env,
        )
        return env

    def start(self) -> None:
        shutil.rmtree(self.var, ignore_errors=True)
        self.var.mkdir(parents=True)
        subprocess.run([PY, ROOT / "manage.py", "migrate", "-v", "0"], env=self.env(), check=True)
        super().start(timeout=30)

    def create_matches(self, count: int) -> list[dict]:
        code = (
            "import json, django; django.setup()\n"
            "from tests.support.fairness import create_race_matches\n"
            f"print(json.dumps(create_race_matches({count})))\n"
        )
        done = subprocess.run(
            [PY, "-c", code], env=self.env(), cwd=ROOT, capture_output=True, text=True, check=False
        )
        if done.returncode:
            raise RuntimeError(done.stderr)
        import json

        return json.loads(done.stdout.strip().splitlines()[-1])


def run_condition(key, label, env, near: Link, far: Link, args) -> dict:
    from tests.support.fairness import Tally, run_matches

    server = Server(key, env)
    server.start()
    total = Tally([], {}, 0)
    started = time.monotonic()
    wave = 0
    try:
        while len(total.races) < args.races:
            matches = server.create_matches(args.parallel)
            tally = asyncio.run(
                run_matches(
                    server.port, matches, near, far, seed=args.seed + wave,
                    mean=args.mean, sd=args.sd,
                )
            )  # fmt: skip
            total = total + tally
            wave += 1
            print(
                f"  {label}: wave {wave}: {len(tally.races)} races "
                f"({len(total.races)} so far, {time.monotonic() - started:.0f} s)",
                flush=True,
            )
    finally:
        server.stop()
    n = len(total.races)
    near_share, far_share = total.near_share, total.far_share
    # A 95 % interval for a share over n independent races (normal approximation).
    half = 1.96 * math.sqrt(max(near_share * (1 - near_share), 1e-9) / max(n, 1))
    gaps = sorted(abs(r["a"] - r["b"]) for r in total.races)
    # The harness's own lag: how long after its claimed time each touch left its player.
    lags = sorted(x for r in total.races for x in r["late"] if x is not None)
    return {
        "label": label,
        "n": n,
        "readings": total.readings,
        "near": near_share,
        "far": far_share,
        "ci": half,
        "median_gap": gaps[len(gaps) // 2] if gaps else float("nan"),
        "lag99": lags[int(0.99 * (len(lags) - 1))] if lags else float("nan"),
        "neither": sum(not r["near_wins"] and not r["far_wins"] for r in total.races),
        "refused": total.refused,
        "seconds": time.monotonic() - started,
    }


def impossible(counts: dict[str, int]) -> str:
    """The honest players' touches refused as impossible, by reason: "late 3, guess 1"."""
    by_reason = [(reason, counts.get(f"impossible_touch ({reason})", 0)) for reason in REASONS]
    shown = ", ".join(f"{reason} {n}" for reason, n in by_reason if n)
    # A refusal without a reason (a server older than the error frame's `reason`).
    unnamed = sum(n for k, n in counts.items() if k.startswith("impossible_touch:"))
    if unnamed:
        shown += f"{', ' if shown else ''}unnamed {unnamed}"
    return shown or "0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=2000, help="contested races per condition")
    parser.add_argument("--parallel", type=int, default=12, help="matches played at once")
    parser.add_argument("--near", type=float, default=20, help="near link, ms one way")
    parser.add_argument("--far", type=float, default=200, help="far link, ms one way")
    parser.add_argument("--jitter", type=float, default=40, help="jitter per chunk, 0..ms")
    parser.add_argument("--mean", type=float, default=250, help="reaction mean, ms")
    parser.add_argument("--sd", type=float, default=40, help="reaction sd, ms")
    parser.add_argument("--lead", type=int, default=150, help="release lead, ms (the default)")
    parser.add_argument(
        "--lead-covering", type=int, default=300, help="a lead covering the far link, ms"
    )
    parser.add_argument(
        "--conditions",
        default="corrected,covering,arrival,control",
        help="which to run: corrected, covering, arrival, control",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    near = Link(args.near, args.jitter)
    far = Link(args.far, args.jitter)
    lead, covering = str(args.lead), str(args.lead_covering)
    every = {
        "corrected": (f"corrected, lead {lead} ms", {LEAD_ENV: lead}, near, far),
        "covering": (f"corrected, lead {covering} ms", {LEAD_ENV: covering}, near, far),
        "arrival": (
            f"arrival order, lead {covering} ms",
            {LEAD_ENV: covering, JUDGE_ENV: "arrival"},
            near,
            far,
        ),
        "control": (
            f"control (both {args.near:g} ms), lead {lead} ms",
            {LEAD_ENV: lead},
            near,
            near,
        ),
    }
    print(
        f"karuta fairness: near {args.near:g} ms, far {args.far:g} ms one way, "
        f"jitter 0–{args.jitter:g} ms each way; reaction N({args.mean:g}, {args.sd:g}) ms "
        f"(≥ 150) after the deciding kana is seen; {args.races} races per condition",
        flush=True,
    )
    rows = []
    for key in args.conditions.split(","):
        label, env, a, b = every[key.strip()]
        rows.append(run_condition(key.strip(), label, env, a, b, args))
    print()
    print(
        "| condition | races | near wins | far wins | ±95 % | neither | median |Δt| "
        "| sender lag p99 | refused (impossible, by reason) | loser's late touch |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        counts = r["refused"]
        impossible_n = sum(n for k, n in counts.items() if k.startswith("impossible_touch"))
        other = sum(counts.values()) - impossible_n - counts.get("late loser", 0)
        print(
            f"| {r['label']} | {r['n']} | {100 * r['near']:.1f} % | {100 * r['far']:.1f} % "
            f"| {100 * r['ci']:.1f} | {r['neither']} | {r['median_gap']:.0f} ms "
            f"| {r['lag99']:.0f} ms | {impossible(counts)}{f' (+{other} other)' if other else ''} "
            f"| {r['refused'].get('late loser', 0)} |"
        )


if __name__ == "__main__":
    main()
