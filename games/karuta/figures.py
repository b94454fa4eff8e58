"""The CPU figures the karuta pages state, as `manage.py karuta_ladder --write` measured them.

The command writes data/ladder.json (the win-rate table and each level's touch times, no
timings, so the same games and seed always write the same file); the level descriptions
and the reading section read it here, so no page states a speed that was typed by hand.
Pure Python, no Django.
"""

from __future__ import annotations

from pathlib import Path

from gamekit.stored import Stored

STORED = Stored(Path(__file__).resolve().parent / "data" / "ladder.json")
DEFAULT_GAMES = 1000  # per pair of levels
DEFAULT_SEED = 1


load_table = STORED.load
write_table = STORED.write


def seconds(ms: float) -> str:
    """A time as the pages print it: seconds with two decimals."""
    return f"{ms / 1000:.2f}"


def touch_seconds(level: str, after: str = "after_decided") -> dict[str, str]:
    """A level's p10/p50/p90 touch times in seconds, after the deciding kana ("after_decided")
    or after the end of the upper verse ("after_verse")."""
    spread = load_table()["levels"][level][after]
    return {key: seconds(spread[key]) for key in ("p10", "p50", "p90")}
