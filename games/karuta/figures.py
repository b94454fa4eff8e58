"""The CPU figures the karuta pages state, as `manage.py karuta_ladder --write` measured them.

The command writes data/ladder.json (the win-rate table and each level's touch times, no
timings, so the same games and seed always write the same file); the level descriptions
and the reading section read it here, so no page states a speed that was typed by hand.
Pure Python, no Django.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

FIGURES_PATH = Path(__file__).resolve().parent / "data" / "ladder.json"
DEFAULT_GAMES = 1000  # per pair of levels
DEFAULT_SEED = 1


def write_table(table: Mapping[str, Any], path: Path | None = None) -> None:
    path = path or FIGURES_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    load_table.cache_clear()


@cache
def load_table(path: Path | None = None) -> dict[str, Any]:
    return json.loads((path or FIGURES_PATH).read_text(encoding="utf-8"))


def seconds(ms: float) -> str:
    """A time as the pages print it: seconds with two decimals."""
    return f"{ms / 1000:.2f}"


def touch_seconds(level: str, after: str = "after_decided") -> dict[str, str]:
    """A level's p10/p50/p90 touch times in seconds, after the deciding kana ("after_decided")
    or after the end of the upper verse ("after_verse")."""
    spread = load_table()["levels"][level][after]
    return {key: seconds(spread[key]) for key in ("p10", "p50", "p90")}
