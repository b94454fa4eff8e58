"""The CPU figures the Bakudan page states, as `manage.py bakudan_stats --write` measured them
(data/cpu.json: shares and counts, no timings, so the same seed writes the same file).
Pure Python, no Django."""

from __future__ import annotations

from pathlib import Path

from gamekit.stored import Stored

STORED = Stored(Path(__file__).resolve().parent / "data" / "cpu.json")
DEFAULT_GAMES = 500  # per personality and player count
DEFAULT_SEED = 27


load_table = STORED.load
write_table = STORED.write


def percent(share: float) -> str:
    """A share as the page prints it: a whole per cent."""
    return f"{share * 100:.0f}%"


def level_figures(level: str) -> dict[str, str]:
    """What a personality's description states, as printed: per cent strings."""
    row = load_table()["levels"][level]
    return {
        "top": percent(row["placements"]["top"]),
        "bottom": percent(row["placements"]["bottom"]),
        "push_person": percent(row["push_person"]["share"]),
        "peek_high": percent(row["peek_high"]["share"]),
        "escape": percent(row["escape"]["share"]),
    }
