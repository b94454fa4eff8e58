"""The figures bench/bench_ratings.py measured and --write stored (data/figures.json):
each CPU level's settled karuta rating (the lobby's "a CPU at your strength") and how
little Bozu Mekuri's rating separates players. Read, never computed, at request time."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parent / "data" / "figures.json"


@cache
def stored() -> dict[str, Any]:
    return json.loads(PATH.read_text(encoding="utf-8"))


def cpu_ratings() -> dict[str, float]:
    """Karuta competitive: each CPU level's settled rating, by level key."""
    return dict(stored()["karuta_cpu_levels"])


def bozu() -> dict[str, Any]:
    return dict(stored()["bozu"])
