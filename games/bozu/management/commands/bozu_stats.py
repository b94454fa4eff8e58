"""Monte Carlo of whole Bozu Mekuri games: first-place rates per seat and more."""

from __future__ import annotations

import secrets

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gamekit import SEAT_COLOURS
from games.bozu import figures as stored
from games.bozu import sim
from games.bozu.rules import EmperorRule, InvalidSettingsError, Rules, SemimaruRule


class Command(BaseCommand):
    help = "Simulate many Bozu Mekuri games with the vectorised simulator and print figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200_000)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--semimaru", choices=[r.value for r in SemimaruRule], default="monk")
        parser.add_argument("--emperor", choices=[r.value for r in EmperorRule], default="noble")
        parser.add_argument("--princess-extra-draw", action="store_true")
        parser.add_argument("--seed", type=int, help="default: a fresh random seed, printed")
        parser.add_argument(
            "--runs",
            type=int,
            default=1,
            help="play this many runs (seeds seed, seed + 1, …) and print each seat's range",
        )
        parser.add_argument(
            "--write",
            action="store_true",
            help="store the runs' seat figures for the tips (default rules, red first, --seed)",
        )
        parser.add_argument(
            "--random-first",
            action="store_true",
            help="pick the first player at random in each game (NOT how the site plays; "
            "for comparing with simulations that did)",
        )

    def handle(self, *args, **options) -> None:
        try:
            rules = Rules(
                players=options["players"],
                semimaru=options["semimaru"],
                emperor=options["emperor"],
                princess_extra_draw=options["princess_extra_draw"],
            )
        except InvalidSettingsError as error:
            raise CommandError(str(error)) from None
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**32)
        if options["runs"] < 1:
            raise CommandError("--runs must be at least 1")
        if options["runs"] > 1 or options["write"]:
            return self.runs(rules, options, seed)
        figures = sim.simulate(rules, options["games"], seed, random_first=options["random_first"])
        write = self.stdout.write

        princess = "on" if rules.princess_extra_draw else "off"
        first = "random first player" if figures.random_first else "red draws first"
        write(
            f"Bozu Mekuri: {figures.games:,} games, {rules.players} players, "
            f"semimaru={rules.semimaru}, emperor={rules.emperor}, "
            f"princess extra draw {princess}, {first}, seed {seed}"
        )
        write(
            "Ties for first: 'sole first' counts a seat only when it alone holds the most "
            "cards; 'shared first' also counts seats tied for the most; 'split' gives each "
            "of k tied seats 1/k."
        )
        write(f"{'seat':<5}{'colour':<8}{'sole first':>12}{'shared first':>14}{'split':>10}")
        for seat in range(rules.players):
            write(
                f"{seat + 1:<5}{SEAT_COLOURS[seat]:<8}"
                f"{figures.sole_first[seat]:>12.2%}{figures.shared_first[seat]:>14.2%}"
                f"{figures.first_share[seat]:>10.2%}"
            )
        write(f"Draw (tie for first): {figures.draw_rate:.2%} of games")
        write(
            f"Winner's mean cards: {figures.winner_mean_cards:.2f} (all games; "
            f"{figures.sole_winner_mean_cards:.2f} in games with one winner)"
        )
        write(f"Cards left in the field (nobody's): {figures.field_mean_cards:.2f} on average")
        write(f"Most cards moved by one draw: {figures.biggest_move_mean:.2f} on average per game")
        write(
            f"Time: {figures.seconds:.3f} s ({figures.games / figures.seconds:,.0f} games/s), "
            f"seed {seed}"
        )

    def runs(self, rules: Rules, options: dict, seed: int) -> None:
        """Several seeds of one rule set: each run's sole-first share per seat, and the range."""
        if options["random_first"]:
            raise CommandError("--runs and --write measure the site's game: red draws first")
        if options["write"] and (options["seed"] is None or rules != Rules.from_settings({})):
            raise CommandError("--write stores the default rules' figures: give --seed only")
        table = stored.seat_runs(options["games"], seed, options["runs"], rules)
        write = self.stdout.write
        write(
            f"Bozu Mekuri: {table['runs']} runs of {table['games']:,} games, "
            f"{rules.players} players, {rules.to_settings()}, red draws first, seeds "
            f"{seed}–{seed + table['runs'] - 1}"
        )
        write("sole first per seat (the seat alone holds the most cards):")
        for k, run in enumerate(table["sole_first"]):
            write(f"  seed {seed + k}: " + " ".join(f"{share:.2%}" for share in run))
        write(f"every seat, every run: {table['low']:.2%} to {table['high']:.2%}")
        if options["write"]:
            stored.write_seat_runs(table)
            write(f"Wrote {stored.SEAT_RUNS.path}")
