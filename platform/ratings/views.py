"""The leaderboards: one page per rating, top 100 and the viewer's own place."""

from __future__ import annotations

from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.http import RFC3986_SUBDELIMS

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
    # Numbers as text: the template would localise each of 300 numbers again.
    rows = [
        (str(r.place), r.handle, url, str(round(r.rating)), str(r.games), r.user_id == you)
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


PLACEHOLDER = "HANDLE"


def _profile_urls(handles: list[str]) -> list[str | None]:
    """Each player's profile page (the players app's), or None while there is none. One
    reverse() for the page, the handle quoted into it as reverse() quotes an argument (a
    hundred reverse() calls were a fifth of the page's time)."""
    try:
        pattern = reverse("profile", args=[PLACEHOLDER])
    except NoReverseMatch:
        return [None] * len(handles)
    head, tail = pattern.split(PLACEHOLDER, 1)
    safe = RFC3986_SUBDELIMS + "/~:@"
    return [f"{head}{quote(handle, safe=safe)}{tail}" for handle in handles]
