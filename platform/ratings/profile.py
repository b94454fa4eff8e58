"""The ratings section of a player's profile (services.profile_section)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString

from ratings import chart, names, pure
from ratings.models import Rating, RatingChange


def render_section(user: Any) -> SafeString:
    ratings = list(Rating.objects.filter(user=user))
    order = {k: i for i, k in enumerate(names.KEY_ORDER)}
    ratings.sort(key=lambda r: order.get(r.key, len(order)))
    items = []
    now = timezone.now()
    for row in ratings:
        deviation = row.live(now).deviation  # grown over the days since the last game
        values = list(
            RatingChange.objects.filter(user=user, key=row.key)
            .order_by("played_at", "id")
            .values_list("rating", flat=True)
        )
        items.append(
            {
                "key": row.key,
                "name": names.name(row.key),
                "rating": round(row.rating),
                "deviation": round(deviation),
                "provisional": deviation >= pure.PROVISIONAL_DEVIATION,
                "games": row.games,
                "line": chart.line(values),
            }
        )
    return render_to_string(
        "ratings/profile_section.html",
        {"items": items, "width": chart.WIDTH, "height": chart.HEIGHT},
    )
