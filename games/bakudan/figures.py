"""The CPU figures the Bakudan page states, as `manage.py bakudan_stats --write` measured them
(data/cpu.json: shares and counts, no timings, so the same seed writes the same file).
Pure Python, no Django."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

FIGURES_PATH = Path(__file__).resolve().parent / "data" / "cpu.json"
DEFAULT_GAMES = 500  # per personality and player count
DEFAULT_SEED = 27


def write_table(table: Mapping[str, Any], path: Path | None = None) -> None:
    path = path or FIGURES_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    load_table.cache_clear()


@cache
def load_table(path: Path | None = None) -> dict[str, Any]:
    return json.loads((path or FIGURES_PATH).read_text(encoding="utf-8"))


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
