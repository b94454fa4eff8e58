"""The leaderboards: one page per rating, top 100 and the viewer's own place."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from ratings import figures, names, pure, services


def index(request: HttpRequest) -> HttpResponse:
    boards = [{"key": k, "name": names.name(k)} for k in names.KEY_ORDER]
    return render(request, "ratings/index.html", {"boards": boards})


def board(request: HttpRequest, key: str) -> HttpResponse:
    if key not in services.KEYS:
        raise Http404("no such rating")
    viewer = request.user.pk if request.user.is_authenticated else None
    board = services.leaderboard(key, viewer)
    you = board.viewer.user_id if board.viewer else None
    # The rows as the table shows them, made here: a hundred rows through template tags
    # took most of the page's time.
    urls = _profile_urls([r.handle for r in board.rows])
    rows = [
        (r.place, r.handle, url, round(r.rating), r.games, r.user_id == you)
        for r, url in zip(board.rows, urls, strict=True)
    ]
    context = {
        "key": key,
        "name": names.name(key),
        "board": board,
        "rows": rows,
        "size": services.LEADERBOARD_SIZE,
        "deviation": round(pure.LEADERBOARD_DEVIATION),
        "provisional": round(pure.PROVISIONAL_DEVIATION),
        "days": services.ACTIVE_DAYS,
        "bozu": figures.bozu() if key == "bozu" else None,
    }
    return render(request, "ratings/board.html", context)


def _profile_urls(handles: list[str]) -> list[str | None]:
    """Each player's profile page (the players app's), or None while there is none."""
    try:
        return [reverse("profile", args=[handle]) for handle in handles]
    except NoReverseMatch:
        return [None] * len(handles)
