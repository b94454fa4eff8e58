"""Summaries of solo practice and of CPU self-play. Pure functions over plain records."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

SLOWEST_SHOWN = 5


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 1) if values else None


def _median(values: Sequence[float]) -> float | None:
    return round(float(statistics.median(values)), 1) if values else None


def solo_summary(records: Iterable[Mapping[str, Any]], slowest: int = SLOWEST_SHOWN) -> dict:
    """Summary of solo-practice records (engine state "records" / view "records").

    Each record: poem, kimariji, decided (ms), t (take time from the start of the
    upper verse, None if missed), after_kimariji (t − decided), wrong ([card, t] …).
    """
    records = list(records)
    taken = [r for r in records if r["t"] is not None]
    from_start = [r["t"] for r in taken]
    after = [r["after_kimariji"] for r in taken]
    ordered = sorted(taken, key=lambda r: (-r["after_kimariji"], r["poem"]))
    mistakes = [
        {"poem": r["poem"], "card": card, "t": t} for r in records for card, t in r["wrong"]
    ]
    return {
        "poems": len(records),
        "taken": len(taken),
        "missed": [r["poem"] for r in records if r["t"] is None],
        "mean_ms": _mean(from_start),
        "median_ms": _median(from_start),
        "mean_after_kimariji_ms": _mean(after),
        "median_after_kimariji_ms": _median(after),
        "slowest": [
            {"poem": r["poem"], "t": r["t"], "after_kimariji": r["after_kimariji"]}
            for r in ordered[:slowest]
        ],
        "mistakes": mistakes,
        "mistake_count": len(mistakes),
        "poems_with_mistakes": sorted({m["poem"] for m in mistakes}),
    }


def slowest_poems(records: Iterable[Mapping[str, Any]], count: int = 20) -> list[int]:
    """The poems to practise next: missed ones first, then the slowest after the kimariji."""
    records = list(records)

    def key(r: Mapping[str, Any]) -> tuple[int, float, int]:
        missed = r["t"] is None
        return (0 if missed else 1, -(r["after_kimariji"] or 0), r["poem"])

    ranked = sorted(records, key=key)
    chosen: list[int] = []
    for r in ranked:
        if r["poem"] not in chosen:
            chosen.append(r["poem"])
    return chosen[:count]


def tally_summary(tally: Mapping[str, int]) -> dict[str, float | None]:
    """A seat's speed and otetsuki rate from the engine's per-seat tally.

    mean_after_kimariji_ms averages the seat's own touch on the read card (after
    the deciding kana), whether or not it won the race, so a slow player's figure
    is not flattered by the few races it won.
    """
    return {
        "mean_after_kimariji_ms": (
            round(tally["reach_sum"] / tally["reach_n"], 1) if tally["reach_n"] else None
        ),
        "otetsuki_rate": (
            round(tally["otetsuki"] / tally["readings"], 4) if tally["readings"] else None
        ),
    }


def distribution(values: Sequence[float]) -> dict[str, float | None]:
    """Count, 10th/50th/90th percentiles and the share below zero of a list of times (ms)."""
    if not values:
        return {"n": 0, "p10": None, "p50": None, "p90": None, "below_zero": None}
    ordered = sorted(values)
    n = len(ordered)

    def pick(q: float) -> float:
        return round(float(ordered[min(n - 1, int(q * n))]), 1)

    return {
        "n": n,
        "p10": pick(0.10),
        "p50": pick(0.50),
        "p90": pick(0.90),
        "below_zero": round(sum(1 for v in ordered if v < 0) / n, 4),
    }
