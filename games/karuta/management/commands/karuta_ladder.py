"""CPU-vs-CPU competitive games between the five levels: win rates and a human yardstick."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.karuta import cpu, figures, sim, simulate


class Command(BaseCommand):
    help = (
        "Plays GAMES competitive games for every pair of CPU levels and prints the 5×5 "
        "win-rate table (row level against column level), then per level its touch times on "
        "the read card after the deciding kana and after the end of the upper verse (its held "
        "last kana over), and its otetsuki rate; --write stores them for the pages. The "
        "vectorised simulator plays by default; --engine plays every game "
        "through the engine and the CPU policy (about 20× slower, same model)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--games", type=int, default=figures.DEFAULT_GAMES, help="games per pair of levels"
        )
        parser.add_argument("--seed", type=int, default=figures.DEFAULT_SEED)
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--write",
            action="store_true",
            help=f"also write the figures the pages state ({figures.STORED.path.name})",
        )
        parser.add_argument(
            "--engine", action="store_true", help="play through the engine instead of the simulator"
        )

    def handle(
        self,
        *args: Any,
        games: int,
        seed: int,
        json: bool,
        engine: bool,
        write: bool,
        **options: Any,
    ) -> None:
        if games < 1:
            raise CommandError("--games must be at least 1")
        started = time.perf_counter()
        ladder = (simulate if engine else sim).full_ladder(games, seed)
        seconds = time.perf_counter() - started
        measured = {
            **ladder_figures(ladder),
            "seed": seed,
            "path": "engine" if engine else "simulator",
        }
        if write:
            figures.write_table(measured)
        if json:
            self.stdout.write(_dumps(measured))
            return
        self.stdout.write(format_table(ladder))
        self.stdout.write("")
        self.stdout.write(format_touch_times(ladder.levels, measured["levels"]))
        self.stdout.write("")
        for level in ladder.levels:
            self.stdout.write(in_words(level, measured["levels"][level]))
        total = games * len(ladder.levels) * (len(ladder.levels) - 1) // 2
        path = "engine" if engine else "simulator"
        self.stdout.write(
            f"\n{total} games ({path}), seed {seed}, {seconds:.1f} s "
            f"({total / seconds:.0f} games/s)"
        )


def ladder_figures(ladder: simulate.Ladder) -> dict[str, Any]:
    return {
        "games_per_pair": ladder.games,
        "win_rate": {
            a: {b: ladder.win_rate(a, b) for b in ladder.levels if b != a} for a in ladder.levels
        },
        "levels": {level: ladder.figures(level) for level in ladder.levels},
    }


def format_table(ladder: simulate.Ladder) -> str:
    head = "row beats column".ljust(17) + "".join(f"{b:>9}" for b in ladder.levels)
    lines = [head]
    for a in ladder.levels:
        cells = []
        for b in ladder.levels:
            rate = ladder.win_rate(a, b) if a != b else None
            cells.append(f"{'—':>9}" if rate is None else f"{rate * 100:>8.1f}%")
        lines.append(a.ljust(17) + "".join(cells))
    return "\n".join(lines)


def format_touch_times(levels, figures: dict[str, Any]) -> str:
    """Each level's touches on the read card: 10th/50th/90th percentiles in seconds after the
    deciding kana and after the end of the upper verse, the share of touches before that
    end, and the otetsuki rate per reading."""

    def s(value: float | None) -> str:
        return "—" if value is None else f"{value / 1000:.2f}"

    head = (
        f"{'level':<8} {'after deciding kana p10/p50/p90':>32} "
        f"{'after verse end p10/p50/p90':>29} {'before end':>11} {'otetsuki':>9}"
    )
    lines = [head]
    for level in levels:
        f = figures[level]
        d, e = f["after_decided"], f["after_verse"]
        early = "—" if e["below_zero"] is None else f"{e['below_zero'] * 100:.1f}%"
        rate = f["otetsuki_rate"] or 0.0
        lines.append(
            f"{level:<8} {s(d['p10']):>14} {s(d['p50']):>6} {s(d['p90']):>6} s "
            f"{s(e['p10']):>13} {s(e['p50']):>6} {s(e['p90']):>6} s "
            f"{early:>11} {rate * 100:>8.2f}%"
        )
    return "\n".join(lines)


def in_words(level: str, figures: dict[str, Any]) -> str:
    mean = figures["mean_after_kimariji_ms"]
    rate = figures["otetsuki_rate"] or 0.0
    per = f"one reading in {round(1 / rate)}" if rate else "almost never"
    return (
        f"{level}: touches the card about {mean / 1000:.1f} s after the deciding sound; "
        f"otetsuki {per}."
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


assert set(cpu.LEVEL_ORDER) == set(cpu.LEVELS)
