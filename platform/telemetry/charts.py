"""Server-rendered SVG bar charts: geometry computed here, markup in templates/telemetry/_*.html.

No chart library: a few rectangles and labels, each with its number beside it,
readable without the picture (the template also prints a table of the numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ROW_HEIGHT = 22
LABEL_WIDTH = 180
BAR_WIDTH = 320
VALUE_WIDTH = 150
TOP = 14  # room above the tallest column for its number


@dataclass(frozen=True)
class HBar:
    label: str
    value: float
    text: str  # the number shown beside the bar
    y: int
    width: float


@dataclass(frozen=True)
class HBarChart:
    bars: tuple[HBar, ...]
    height: int
    label_width: int = LABEL_WIDTH
    bar_width: int = BAR_WIDTH
    width: int = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH


def hbar_chart(rows: Sequence[tuple[str, float, str]], maximum: float | None = None) -> HBarChart:
    """rows: (label, value, text). Bars scale to `maximum` (1.0 for rates) or the largest."""
    top = maximum if maximum is not None else max((value for _l, value, _t in rows), default=0)
    bars = tuple(
        HBar(label, value, text, i * ROW_HEIGHT, BAR_WIDTH * value / top if top else 0)
        for i, (label, value, text) in enumerate(rows)
    )
    return HBarChart(bars, max(len(bars), 1) * ROW_HEIGHT)


@dataclass(frozen=True)
class Column:
    label: str
    value: int
    x: int
    y: float
    height: float
    show_label: bool


@dataclass(frozen=True)
class ColumnChart:
    columns: tuple[Column, ...]
    width: int
    height: int
    axis_y: int
    maximum: int
    column_width: int


def column_chart(rows: Sequence[tuple[str, int]], plot_height: int = 160) -> ColumnChart:
    """Vertical columns (e.g. events per day), each with its number above it; every seventh
    label is shown under the axis. The plot starts 14 px down, leaving room for the numbers."""
    column_width = 18
    maximum = max((value for _label, value in rows), default=0)
    columns = []
    for i, (label, value) in enumerate(rows):
        height = plot_height * value / maximum if maximum else 0
        x, y = 40 + i * column_width, TOP + plot_height - height
        columns.append(Column(label, value, x, y, height, show_label=i % 7 == 0))
    return ColumnChart(
        tuple(columns), 40 + len(rows) * column_width + 10, TOP + plot_height + 24,
        TOP + plot_height, maximum, column_width,
    )  # fmt: skip
