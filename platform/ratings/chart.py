"""A rating's history as the numbers an SVG line needs (pure: the template draws it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 160, 8
MAX_POINTS = 300  # a line of more points draws no differently at this width


@dataclass(frozen=True)
class Line:
    points: str  # the polyline's "x,y x,y …"
    low: int  # the lowest and highest rating drawn (the axis labels)
    high: int
    games: int


def line(ratings: Sequence[float]) -> Line | None:
    """The polyline of a rating after each game (None: no game). Past MAX_POINTS games,
    each point is the last game of an equal stretch, so the line keeps its end."""
    count = len(ratings)
    if count == 0:
        return None
    if count > MAX_POINTS:
        step = count / MAX_POINTS
        picked = [ratings[min(count - 1, round((i + 1) * step) - 1)] for i in range(MAX_POINTS)]
    else:
        picked = list(ratings)
    low, high = min(picked), max(picked)
    span = max(high - low, 1.0)
    last = max(len(picked) - 1, 1)

    def y(r: float) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (high - r) / span

    if len(picked) == 1:
        coords = [(PAD, y(picked[0])), (WIDTH - PAD, y(picked[0]))]
    else:
        coords = [(PAD + (WIDTH - 2 * PAD) * i / last, y(r)) for i, r in enumerate(picked)]
    return Line(" ".join(f"{x:.1f},{yy:.1f}" for x, yy in coords), round(low), round(high), count)
