"""The leaderboards: one page per rating, top 100 and the viewer's own place."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import figures, names, pure, services


def index(request: HttpRequest) -> HttpResponse:
    boards = [{"key": k, "name": names.name(k)} for k in names.KEY_ORDER]
    return render(request, "ratings/index.html", {"boards": boards})


def board(request: HttpRequest, key: str) -> HttpResponse:
    if key not in services.KEYS:
        raise Http404("no such rating")
    viewer = request.user.pk if request.user.is_authenticated else None
    context = {
        "key": key,
        "name": names.name(key),
        "board": services.leaderboard(key, viewer),
        "size": services.LEADERBOARD_SIZE,
        "deviation": round(pure.LEADERBOARD_DEVIATION),
        "provisional": round(pure.PROVISIONAL_DEVIATION),
        "days": services.ACTIVE_DAYS,
        "bozu": figures.bozu() if key == "bozu" else None,
    }
    return render(request, "ratings/board.html", context)
