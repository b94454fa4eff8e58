"""HTTP side of matches: create (from a game's menu), invitation, play page, play again.

The seat token travels once, in an HttpOnly SameSite cookie scoped to the match's
path (/play/<id>/), which the browser also sends with the match's WebSocket. A
client that asks for JSON gets the token once in the body instead (bots, tests).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

import gamekit
from matches import services
from matches.cookies import SEAT_COOKIE, hold_seat
from matches.errors import MatchError
from matches.forms import ModeForm
from matches.models import Match
from matches.protocol import PROTOCOL_VERSION


def signed_in(request: HttpRequest) -> int | None:
    """The signed-in person's id, recorded on the seats they take (None: a guest)."""
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def match_path(match_id: Any) -> str:
    return reverse("matches:play", args=[match_id])


def _answer(request: HttpRequest, match: Match, token: str | None, seat: int | None = None):
    url = match_path(match.id)
    if wants_json(request):
        body: dict[str, Any] = {"match": str(match.id), "url": url, "ws": f"{url}ws/"}
        if token:
            body.update(token=token, seat=seat)
        if match.invite_code:
            body["invite"] = reverse("matches:invite", args=[match.invite_code])
        response: HttpResponse = JsonResponse(body)
    else:
        response = redirect(url)
    if token:
        hold_seat(request, response, url, token)
    response["Cache-Control"] = "no-store"
    return response


def _refused(request: HttpRequest, code: str, status: int, errors: Any = None) -> HttpResponse:
    exc = MatchError(code)
    if wants_json(request):
        body = {"code": code, "message": exc.message}
        if errors:
            body["errors"] = errors
        return JsonResponse(body, status=status)
    return render(
        request, "matches/refused.html", {"message": exc.message, "errors": errors}, status=status
    )


@require_POST
def create(request: HttpRequest, slug: str) -> HttpResponse:
    """POST from a game's menu: its settings form plus `play_mode` and `cpu_level`."""
    try:
        game = gamekit.registry.get(slug)
    except gamekit.NotRegistered:
        raise Http404 from None
    mode_form = ModeForm(game, request.POST)
    settings_form = game.settings_form(request.POST) if game.settings_form else None
    valid = mode_form.is_valid() & (settings_form is None or settings_form.is_valid())
    if not valid:
        errors = {**mode_form.errors.get_json_data()}
        if settings_form is not None:
            errors.update(settings_form.errors.get_json_data())
        return _refused(request, "bad_message", 400, errors)
    game_settings = game.settings_from_form(settings_form.cleaned_data if settings_form else {})
    mode = mode_form.cleaned_data["play_mode"]
    try:
        match, token = services.create_match(
            game.slug,
            game_settings,
            mode,
            mode_form.cleaned_data["cpu_level"] or None,
            user_id=signed_in(request),
            # The menu's one "rated" box speaks of friend rooms; the other buttons ignore it.
            rated=mode_form.cleaned_data["rated"] and mode == Match.Mode.FRIEND,
        )
    except MatchError as exc:
        return _refused(request, exc.code, 403 if exc.code == "sign_in_to_rate" else 400)
    response = _answer(request, match, token, 0)
    _keep_language(request, response)
    return response


def _keep_language(request: HttpRequest, response: HttpResponse) -> None:
    """/play/ has no language prefix: carry the menu page's language to the play page."""
    language = request.POST.get("language")
    if language in dict(django_settings.LANGUAGES):
        # The same cookie as Django's set_language makes (settings.LANGUAGE_COOKIE_*).
        response.set_cookie(
            django_settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=django_settings.LANGUAGE_COOKIE_AGE,
            path=django_settings.LANGUAGE_COOKIE_PATH,
            domain=django_settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=django_settings.LANGUAGE_COOKIE_SAMESITE,
            secure=django_settings.LANGUAGE_COOKIE_SECURE or request.is_secure(),
            httponly=django_settings.LANGUAGE_COOKIE_HTTPONLY,
        )


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """GET shows the room and a "join" button; POST takes the next empty seat."""
    match = services.by_invite(code)
    if match is None:
        return _refused(request, "bad_invite", 404)
    game = gamekit.registry.get(match.game)
    if request.method == "GET":
        return render(
            request, "matches/invite.html", {"match": match, "game": game, **_groups(game, match)}
        )
    group = request.POST.get("group")
    if group not in (None, "") and not group.isdigit():
        return _refused(request, "bad_message", 400)
    try:
        chosen = None if group in (None, "") else int(group)
        match, seat, token = services.join(code, signed_in(request), group=chosen)
    except MatchError as exc:
        if exc.code == "room_full" and not wants_json(request):
            return redirect(match_path(match.id))  # watch instead
        status = (
            409
            if exc.code in ("room_full", "group_full")
            else 400
            if exc.code == "bad_message"
            else 404
        )
        return _refused(request, exc.code, status)
    return _answer(request, match, token, seat)


def _groups(game: gamekit.Game, match: Match) -> dict[str, Any]:
    """The invitation's choice of side (a team), when the game offers one: each group's
    label, its seats' colours and handles, and how many are free."""
    seats = {s.index: s for s in match.seats.all()}
    groups = []
    for number, group in enumerate(game.seat_groups(match.settings)):
        members = [seats[i] for i in group.seats if i in seats]
        groups.append(
            {
                "number": number,
                "label": group.label,
                "seats": members,
                "free": sum(1 for s in members if not s.is_taken),
            }
        )
    return {"groups": groups}


@require_POST
def rematch(request: HttpRequest, match_id: Any) -> HttpResponse:
    """Play again: everyone ends up in the same next match; players keep their seats."""
    try:
        nxt, token = services.rematch(
            match_id, request.COOKIES.get(SEAT_COOKIE), signed_in(request)
        )
    except MatchError as exc:
        return _refused(request, exc.code, 404 if exc.code == "not_found" else 409)
    return _answer(request, nxt, token)


def play(request: HttpRequest, match_id: Any) -> HttpResponse:
    """The play page: what the front end needs to open the match's WebSocket."""
    match = services.find(match_id)
    if match is None:
        raise Http404
    game = gamekit.registry.get(match.game)
    held = services.token_seats(match.id, request.COOKIES.get(SEAT_COOKIE))
    url = match_path(match.id)
    config = {
        "match": str(match.id),
        "game": match.game,
        "mode": match.mode,  # known before the socket opens (friend-room telemetry)
        "ws": f"{url}ws/",
        "seats": held,
        "protocol": PROTOCOL_VERSION,  # the page's hello says it (match-client.js)
        "rematch": reverse("matches:rematch", args=[match.id]),
        # The settings as telemetry buckets: the page reports them, never raw values.
        "telemetry_settings": game.telemetry_settings_buckets(match.settings),
        # Teams (Game.seat_groups): the room lists its seats by group, the page names them.
        "groups": [list(group.seats) for group in game.seat_groups(match.settings)],
    }
    invite_url = None
    if held and match.invite_code:
        invite_url = request.build_absolute_uri(reverse("matches:invite", args=[match.invite_code]))
    response = render(
        request,
        # A game's own play screen if it has one (bozu/play.html), else the generic page.
        [f"{game.slug}/play.html", "matches/play.html"],
        {
            "match": match,
            "game": game,
            "config": config,
            "seats": list(match.seats.all()),
            "held": held,
            "invite_url": invite_url,
        },
    )
    response["Cache-Control"] = "no-store"
    return response
