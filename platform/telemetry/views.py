from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from gamekit import registry
from telemetry import dashboard as figures
from telemetry import vocabulary as v
from telemetry.charts import column_chart, hbar_chart
from telemetry.models import RETENTION


@require_safe
def privacy(request):
    return render(request, "telemetry/privacy.html", {"retention_days": RETENTION.days})


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _game_name(slug: str) -> str:
    return str(registry.get(slug).name) if registry.is_registered(slug) else slug


@staff_member_required
@require_safe
def staff_dashboard(request):
    now = timezone.now()
    events = figures.recent(now)
    completion = figures.completion_by_game_mode(events)
    rooms = figures.room_failures_by_browser_os(events)
    view3d = figures.view3d_failures_by_device(events)
    speeds = figures.render_speed_by_device(events)
    daily = figures.daily_counts(events, timezone.localdate(now))
    speed_charts = [
        (device, hbar_chart([(bucket, n, str(n)) for bucket, n in buckets.items()]))
        for device, buckets in speeds.items()
    ]
    context = {
        **admin.site.each_context(request),
        "title": _("Telemetry"),
        "retention_days": RETENTION.days,
        "total": events.count(),
        "completion": completion,
        "completion_chart": hbar_chart(
            [
                (
                    f"{_game_name(row.game)} · {row.mode}",
                    row.rate,
                    f"{_percent(row.rate)} ({row.completed}/{row.started})",
                )
                for row in completion
            ],
            maximum=1.0,
        ),
        "rooms": rooms,
        "rooms_chart": hbar_chart(
            [(r.label, r.rate, f"{_percent(r.rate)} ({r.failures}/{r.attempts})") for r in rooms],
            maximum=1.0,
        ),
        "view3d": view3d,
        "view3d_chart": hbar_chart(
            [(r.label, r.rate, f"{_percent(r.rate)} ({r.failures}/{r.attempts})") for r in view3d],
            maximum=1.0,
        ),
        "speed_buckets": v.RENDER_SPEEDS,
        "speeds": speeds,
        "speed_charts": speed_charts,
        "daily": daily,
        "daily_chart": column_chart([(date_format(day, "m/d"), n) for day, n in daily]),
    }
    return render(request, "telemetry/dashboard.html", context)
