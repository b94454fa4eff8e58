"""The figures behind the staff dashboard, computed from the last 30 days of events."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from telemetry import vocabulary as v
from telemetry.models import RETENTION, TelemetryEvent
from telemetry.schema import ROOM_KINDS


def rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class Completion:
    game: str
    mode: str
    started: int
    ended: int
    completed: int

    @property
    def rate(self) -> float:
        return min(rate(self.completed, self.started), 1.0)


@dataclass(frozen=True)
class Failure:
    label: str
    attempts: int
    failures: int

    @property
    def rate(self) -> float:
        return rate(self.failures, self.attempts)


def recent(now=None):
    return TelemetryEvent.objects.filter(received_at__gte=(now or timezone.now()) - RETENTION)


def completion_by_game_mode(events) -> list[Completion]:
    """Games started vs played to the end (win, loss, draw, complete), per game and mode."""
    rows = (
        events.filter(kind__in=("game_start", "game_end"))
        .values("game", "mode")
        .annotate(
            started=Count("pk", filter=Q(kind="game_start")),
            ended=Count("pk", filter=Q(kind="game_end")),
            completed=Count("pk", filter=Q(kind="game_end", result__in=v.COMPLETED_RESULTS)),
        )
        .order_by("game", "mode")
    )
    return [Completion(**row) for row in rows]


def room_failures_by_browser_os(events) -> list[Failure]:
    """Friend-room connect, spectate and take-seat attempts that failed, per browser and OS."""
    rows = (
        events.filter(kind__in=ROOM_KINDS)
        .values("browser", "os")
        .annotate(attempts=Count("pk"), failures=Count("pk", filter=Q(outcome="failure")))
        .order_by("browser", "os")
    )
    return [Failure(f"{r['browser']} / {r['os']}", r["attempts"], r["failures"]) for r in rows]


def view3d_failures_by_device(events) -> list[Failure]:
    """3D view failures among pages that tried it (started or failed), per device kind."""
    rows = (
        events.filter(kind__in=("view3d_start", "view3d_failure"))
        .values("device")
        .annotate(attempts=Count("pk"), failures=Count("pk", filter=Q(kind="view3d_failure")))
        .order_by("device")
    )
    return [Failure(r["device"], r["attempts"], r["failures"]) for r in rows]


def render_speed_by_device(events) -> dict[str, dict[str, int]]:
    """{device: {speed bucket: count}} over render_speed and view3d_start events."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(v.RENDER_SPEEDS, 0))
    rows = (
        events.exclude(render_speed="")
        .values("device", "render_speed")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for row in rows:
        table[row["device"]][row["render_speed"]] = row["n"]
    return dict(sorted(table.items()))


def daily_counts(events, today: date) -> list[tuple[date, int]]:
    """Events per day for the 30 days up to today, days without events included."""
    counts = Counter(
        {
            row["day"]: row["n"]
            for row in events.annotate(day=TruncDate("received_at"))
            .values("day")
            .annotate(n=Count("pk"))
            .order_by()
        }
    )
    days = [today - timedelta(days=offset) for offset in range(RETENTION.days - 1, -1, -1)]
    return [(day, counts.get(day, 0)) for day in days]
