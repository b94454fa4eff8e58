"""The genpei figures the karuta page states, as `manage.py karuta_genpei --write` measured
them (data/genpei.json: balance and game length; no timings, so the same games and seed
always write the same file). Pure Python, no Django."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gamekit.stored import Stored

STORED = Stored(Path(__file__).resolve().parent / "data" / "genpei.json")
LENGTH_KEYS = ("1v1", "2v2", "4v4")


def lengths() -> list[dict[str, Any]]:
    """Per team size (1v1, 2v2, 4v4): median readings to the end and minutes of reading."""
    table = STORED.load()["match_ups"]
    return [
        {
            "teams": key,
            "readings": table[key]["median_readings"],
            "minutes": table[key]["median_minutes"],
        }
        for key in LENGTH_KEYS
    ]
