"""The seat token's cookie: set by the HTTP views (rooms, the lobby, events), read by the
socket's handshake and the record views. Its own module, so an HTTP view never imports the
socket to name it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

SEAT_COOKIE = "seat_token"
SEAT_COOKIE_AGE = 30 * 24 * 3600  # a seat outlives any game; the record keeps its owner


def hold_seat(request: HttpRequest, response: HttpResponse, play_url: str, token: str) -> None:
    """Give the browser its seat token, for the match's own address only (never sent to other
    pages, never readable by scripts), and keep the answer out of every cache."""
    response.set_cookie(
        SEAT_COOKIE,
        token,
        max_age=SEAT_COOKIE_AGE,
        path=play_url,
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )
    response["Cache-Control"] = "no-store"
