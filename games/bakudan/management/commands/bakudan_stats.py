"""Monte Carlo of Bakudan games: each personality's survival (win) rate by seat and player
count in CPU-only games, how long games last (the figures behind engine.COMPOSITION), and how
each personality plays at a table with a person — where it puts bombs back, whom it pushes
onto, when it peeks, whether it escapes a known bomb — the figures the page states
(`--write` stores them in games/bakudan/data/cpu.json)."""

from __future__ import annotations

import secrets

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gamekit import SEAT_COLOURS
from games.bakudan import cpu, engine, figures, sim


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
        parser.add_argument(
            "--table-games",
            type=int,
            default=figures.DEFAULT_GAMES,
            help="games per personality and player count at tables with a person",
        )
        parser.add_argument(
            "--write",
            action="store_true",
            help="store the behaviour figures for the page (needs --seed)",
        )

    def handle(self, *args, **options) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        bad = [n for n in options["players"] if not engine.MIN_PLAYERS <= n <= engine.MAX_PLAYERS]
        if bad:
            raise CommandError(f"player counts are 2 to 5, not {bad}")
        if options["table_games"] < 1:
            raise CommandError("--table-games must be at least 1")
        if options["write"] and options["seed"] is None:
            raise CommandError("--write needs --seed, so the stored figures can be made again")
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
        self.behaviour(options["players"], options["table_games"], seed, levels, options["write"])

    def behaviour(self, players, games: int, seed: int, levels, write: bool) -> None:
        measured = sim.behaviour(players, games, seed, levels)
        table = {**measured.to_dict(), "seed": seed, "players": list(players)}
        out = self.stdout.write
        out("")
        out(
            f"At a table with a person ({games:,} games per personality and player count "
            f"{', '.join(map(str, players))}; seat 0 is the person, played by a stand-in the "
            "CPUs see as a person; every other seat the personality):"
        )
        out(
            f"{'personality':<12}{'bomb on top':>12}{'at bottom':>10}{'elsewhere':>10}"
            f"{'placed':>8}{'push→you':>10}{'push→CPU':>10}"
            f"{'peek≥25%':>10}{'peek<25%':>10}{'escape':>8}{'you survive':>12}"
        )
        for level in levels:
            row = table["levels"][level]
            where = row["placements"]
            out(
                f"{level:<12}{where['top']:>12.1%}{where['bottom']:>10.1%}"
                f"{where['elsewhere']:>10.1%}{row['placements_n']:>8}"
                + "".join(
                    f"{row[key]['share']:>{width}.1%}"
                    for key, width in (
                        ("push_person", 10),
                        ("push_cpu", 10),
                        ("peek_high", 10),
                        ("peek_low", 10),
                        ("escape", 8),
                        ("person_survives", 12),
                    )
                )
            )
        out(
            "push→you / push→CPU: of the turns it ends holding a push, the share it pushes, "
            "when the next player is you / a CPU. peek: of its decisions holding a peek "
            "without knowing the top, the share it peeks, at danger from 25% / below. "
            "escape: of its decisions knowing the top is a bomb with a card that avoids it, "
            "the share it plays one. you survive: the person's (stand-in's) win rate."
        )
        if write:
            figures.write_table(table)
            out(f"Wrote {figures.STORED.path}")
