"""Figures a management command measured and a page states, kept as JSON beside the game.

The command writes them (`--write`); the page reads them, so no page types a measured figure.
Pure Python, no Django.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def write_json(path: Path, table: Mapping[str, Any]) -> None:
    """Write `table` as the stored files are written: UTF-8, one-space indent, a last newline
    (no timings in it, so the same run always writes the same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


class Stored:
    """One stored figures file: read once, then from memory, until its command rewrites it."""

    def __init__(self, path: Path):
        self.path = path
        self._table: dict[str, Any] | None = None

    def load(self) -> dict[str, Any]:
        if self._table is None:
            self._table = read_json(self.path)
        return self._table

    def write(self, table: Mapping[str, Any]) -> None:
        write_json(self.path, table)
        self.forget()

    def forget(self) -> None:
        """Read the file again next time (a test pointed `path` elsewhere, or back)."""
        self._table = None
