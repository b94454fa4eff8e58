"""Write the figures table for all 48 rule combinations (games/bozu/data/figures.json)."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from games.bozu import figures


class Command(BaseCommand):
    help = "Simulate every Bozu Mekuri rule combination and write the figures table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=figures.DEFAULT_GAMES)
        parser.add_argument("--seed", type=int, default=figures.DEFAULT_SEED)
        parser.add_argument("--output", type=Path, default=figures.FIGURES_PATH)

    def handle(self, *args, games: int, seed: int, output: Path, **options) -> None:
        started = time.perf_counter()

        def progress(index: int, row: dict) -> None:
            rates = " ".join(f"{rate:.2%}" for rate in row["sole_first"])
            self.stdout.write(f"{index + 1:2d}/48 {row['settings']}  sole first {rates}")

        table = figures.build_table(games, seed, progress)
        figures.write_table(table, output)
        self.stdout.write(
            f"Wrote {output} ({games:,} games per combination, seed {seed}) "
            f"in {time.perf_counter() - started:.1f} s."
        )
