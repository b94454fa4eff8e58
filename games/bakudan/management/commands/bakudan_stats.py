"""Monte Carlo of CPU-only Bakudan games: each personality's survival (win) rate by seat and
player count, and how long games last (the figures behind engine.COMPOSITION)."""

from __future__ import annotations

import secrets

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gamekit import SEAT_COLOURS
from games.bakudan import cpu, engine, sim


class Command(BaseCommand):
    help = "Play many CPU-only Bakudan Mekuri games and print survival rates and game lengths."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=3000, help="games per player count")
        parser.add_argument(
            "--players", type=int, nargs="*", default=[2, 3, 4, 5], help="player counts"
        )
        parser.add_argument(
            "--levels",
            nargs="*",
            choices=cpu.PERSONALITIES,
            default=list(cpu.PERSONALITIES),
            help="personalities to seat (every seating of them is played equally often)",
        )
        parser.add_argument("--seed", type=int, help="default: a fresh random seed, printed")

    def handle(self, *args, **options) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        bad = [n for n in options["players"] if not engine.MIN_PLAYERS <= n <= engine.MAX_PLAYERS]
        if bad:
            raise CommandError(f"player counts are 2 to 5, not {bad}")
        levels = tuple(dict.fromkeys(options["levels"]))
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**32)
        write = self.stdout.write
        write(
            f"Bakudan Mekuri, CPU only: {options['games']:,} games per player count, "
            f"personalities {', '.join(levels)}, seed {seed}"
        )
        write("Survival = the share of games that personality won from that seat.")
        for players in options["players"]:
            figures = sim.simulate(players, options["games"], seed, levels)
            deck = engine.COMPOSITION[players].deck_size(players)
            write("")
            write(
                f"{players} players (deck {deck} cards after the deal, {players - 1} "
                f"bomb{'s' if players > 2 else ''}; fair share {1 / players:.1%})"
            )
            header = f"{'personality':<12}{'all seats':>10}" + "".join(
                f"{SEAT_COLOURS[s]:>9}" for s in range(players)
            )
            write(header)
            for level in levels:
                row = f"{level:<12}{figures.rate(level):>10.1%}"
                row += "".join(f"{figures.rate(level, s):>9.1%}" for s in range(players))
                write(row)
            ends = sorted(figures.turn_ends)
            write(
                f"turn-ends per game: mean {figures.mean_turn_ends():.1f}, median "
                f"{figures.median_turn_ends():.0f}, 5th-95th percentile "
                f"{ends[len(ends) // 20]}-{ends[len(ends) * 19 // 20]}"
            )
            gaps = ", ".join(f"{g:.1f}" for g in figures.mean_gaps())
            write(f"turn-ends before each elimination (mean, first to last): {gaps}")
            write(f"time {figures.seconds:.2f} s")
