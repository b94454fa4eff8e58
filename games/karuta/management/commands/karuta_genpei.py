"""Genpei-sen, CPU team against CPU team: each side's win rate and the length of a game."""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.karuta import genpei_figures, genpei_sim


class Command(BaseCommand):
    help = (
        "Plays GAMES genpei games through the engine and the CPU policy for each match-up: "
        "equal teams of ふつう at 1v1, 2v2 and 4v4 (each side's win rate; median readings "
        "to the end and minutes of reading at the standard pace), a 名人 pair against a "
        "ふつう pair and four ふつう against two (teams change sides every other game). "
        "--write stores the figures the karuta page states."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=genpei_sim.DEFAULT_GAMES)
        parser.add_argument("--seed", type=int, default=genpei_sim.DEFAULT_SEED)
        parser.add_argument("--jobs", type=int, default=1, help="processes to play in")
        parser.add_argument("--only", default="", help="comma-separated match-up keys")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--write",
            action="store_true",
            help=f"also write the figures the page states ({genpei_figures.STORED.path.name})",
        )

    def handle(self, *args: Any, games: int, seed: int, jobs: int, only: str, **options) -> None:
        if games < 1 or jobs < 1:
            raise CommandError("--games and --jobs must be at least 1")
        chosen = genpei_sim.match_ups()
        if only:
            keys = set(only.split(","))
            chosen = [m for m in chosen if m.key in keys]
            if not chosen:
                raise CommandError(f"no match-up among {only!r}")
        started = time.perf_counter()
        measured: dict[str, Any] = {"games": games, "seed": seed, "pace": genpei_sim.PACE}
        results = {}
        for match_up in chosen:
            results[match_up.key] = _play(match_up, games, seed, jobs).figures()
            self.stdout.write(line(match_up, results[match_up.key]))
        measured["match_ups"] = results
        seconds = time.perf_counter() - started
        if options["write"]:
            if only:
                raise CommandError("--write needs every match-up (no --only)")
            genpei_figures.STORED.write(measured)
        if options["json"]:
            self.stdout.write(json.dumps(measured, ensure_ascii=False, indent=1))
        self.stdout.write(f"{games} games per match-up, seed {seed}, {seconds:.0f} s")


def _play(match_up: genpei_sim.MatchUp, games: int, seed: int, jobs: int) -> genpei_sim.Tally:
    if jobs == 1:
        return genpei_sim.tally(genpei_sim.play_range(match_up, 0, games, seed))
    bounds = [games * i // jobs for i in range(jobs + 1)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            genpei_sim.play_range,
            [match_up] * jobs,
            bounds[:-1],
            bounds[1:],
            [seed] * jobs,
        )
        return genpei_sim.tally([game for part in parts for game in part])


def line(match_up: genpei_sim.MatchUp, f: dict[str, Any]) -> str:
    first = f"{'+'.join(match_up.first)} v {'+'.join(match_up.second)}"
    rates = (
        f"first team {f['first_win_rate'] * 100:.1f}% ± {f['ci95'] * 100:.1f}"
        if match_up.swap
        else f"side 1 {f['side_win_rate'][0] * 100:.1f}%, side 2 {f['side_win_rate'][1] * 100:.1f}%"
        f" (± {f['ci95'] * 100:.1f})"
    )
    return (
        f"{match_up.key:<17} {first:<40} {rates}; median {f['median_readings']} readings, "
        f"{f['median_minutes']} min, margin {f['median_margin']}"
    )
