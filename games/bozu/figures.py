"""The figures table: simulated results for all 48 rule combinations (pure, no Django).

`python manage.py bozu_figures` writes data/figures.json with `build_table`; the tips page
reads it through `figures_for(settings)`. Stored figures carry no timings, so the same
games count and seed always write the same file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from gamekit.stored import Stored
from games.bozu import sim
from games.bozu.rules import Rules, all_rules

FIGURES_PATH = Path(__file__).resolve().parent / "data" / "figures.json"
DEFAULT_GAMES = 200_000  # per combination: the published figures' count; ~20-40 s in all
DEFAULT_SEED = 20261129
DIGITS = 6


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def row_for(rules: Rules, games: int, seed: int, random_first: bool = False) -> dict[str, Any]:
    figures = sim.simulate(rules, games, seed, random_first=random_first).to_dict()
    del figures["seconds"], figures["random_first"]
    return {key: _rounded(value) for key, value in figures.items()}


def build_table(
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Simulate every combination; combination i uses seed + i."""
    rows = []
    combinations = all_rules()
    for index, rules in enumerate(combinations):
        rows.append(row_for(rules, games, seed + index))
        if progress:
            progress(index, rows[-1])
    default = Rules.from_settings({})
    return {
        "about": (
            "Bozu Mekuri figures per rule combination, written by `manage.py bozu_figures`. "
            "Rates are fractions of all games; red (seat 0) always draws first. "
            "sole_first: the seat alone has the most cards; shared_first: the most cards, "
            "alone or tied; first_share: a tie among k seats counts 1/k to each; draw_rate: "
            "a tie for first. winner_mean_cards: the most cards a seat holds, over all games. "
            "random_first: 4 players, default rules, the first player drawn at random in "
            "each game, seats reported by colour (for comparison with other simulations)."
        ),
        "games": games,
        "seed": seed,
        "rows": rows,
        # The usual "24.5–25.0% each" is for a random first player; the site's red-first
        # rows above are not comparable with it, so the tips give both.
        "random_first": row_for(default, games, seed + len(combinations), random_first=True),
    }


def write_table(table: Mapping[str, Any], path: Path = FIGURES_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    load_table.cache_clear()


@cache
def load_table(path: Path = FIGURES_PATH) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def figures_for(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """The stored figures for these settings (missing keys take the defaults)."""
    wanted = Rules.from_settings(settings).to_settings()
    for row in load_table()["rows"]:
        if row["settings"] == wanted:
            return row
    raise KeyError(f"no figures for {wanted}: run `manage.py bozu_figures`")


# --- the tips' seat-order figure: several seeds of the site's own default game ----------------

SEAT_RUNS = Stored(FIGURES_PATH.parent / "seat_runs.json")
DEFAULT_RUNS = 5


def seat_runs(games: int, seed: int, runs: int, rules: Rules | None = None) -> dict[str, Any]:
    """`runs` simulations of `games` games (seeds seed, seed + 1, …), red first as the site
    plays: each seat's share of games it finished first alone, per run, and the range."""
    rules = rules or Rules.from_settings({})
    per_run = [list(sim.simulate(rules, games, seed + k).sole_first) for k in range(runs)]
    shares = [share for run in per_run for share in run]
    return {
        "about": "Written by `manage.py bozu_stats --runs N --write`: sole_first per run.",
        "settings": rules.to_settings(),
        "games": games,
        "seed": seed,
        "runs": runs,
        "sole_first": [_rounded(run) for run in per_run],
        "low": round(min(shares), DIGITS),
        "high": round(max(shares), DIGITS),
    }


load_seat_runs = SEAT_RUNS.load
write_seat_runs = SEAT_RUNS.write
