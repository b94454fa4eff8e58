"""Event pages: the list, creating an event, the event page (bracket or standings, live by
short polling), a board's seat for its person, the projector view, the organiser's tools
and the exports (docs/events.md)."""

from __future__ import annotations

import csv
import functools
import time

from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    JsonResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import listing, services, standings, ticker
from events.forms import EventForm
from events.models import Board, Entrant, Event
from events.services import EventError
from matches.cookies import hold_seat
from matches.protocol import PROTOCOL_VERSION
from poems import catalogue
from telemetry.throttling import WindowCounter, address_key, client_address, rate_key

POLL_MS = 3000  # the event page asks for news this often
LIMITS = {"write": (30, 60), "poll": (300, 60)}  # requests per window (s), per address
_COUNTERS = {scope: WindowCounter() for scope in LIMITS}


def limited(scope: str):
    def wrap(view):
        @functools.wraps(view)
        def inner(request, *args, **kwargs):
            limit, window = LIMITS[scope]
            key = address_key(rate_key(client_address(request)))
            if _COUNTERS[scope].hit(key, limit, window, 10_000, time.monotonic()):
                return HttpResponse(_("Too many requests: wait a minute."), status=429)
            return view(request, *args, **kwargs)

        return inner

    return wrap


def messages() -> dict[str, str]:
    return {
        "finished": _("This event has finished."),
        "started": _("This event has started: it takes no more entrants."),
        "link_only": _("This event is open only to people with its link."),
        "withdrawn": _("You have been withdrawn from this event."),
        "division": _("Your rating is outside this event's division."),
        "decided": _("That board is decided already."),
    }


def event_of(code: str) -> Event:
    return get_object_or_404(Event, code=code)


def is_organiser(request: HttpRequest, event: Event) -> bool:
    return request.user.is_authenticated and request.user.pk == event.organiser_id


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    mine = []
    if request.user.is_authenticated:
        mine = list(Event.objects.filter(organiser=request.user).order_by("-starts_at")[:20])
    return render(
        request, "events/index.html", {"events": Event.objects.listed()[:50], "mine": mine}
    )


@login_required
@limited("write")
def create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = services.create_event(request.user, **form.event_fields())
        return redirect("events:page", code=event.code)
    return render(request, "events/create.html", {"form": form})


ARENA_BOARDS_SHOWN = 40  # an arena's page lists its newest boards (its standings: everyone)


def context(request: HttpRequest, event: Event, key: str = "") -> dict:
    table = standings.build(event, arena_boards=ARENA_BOARDS_SHOWN)
    organiser = is_organiser(request, event)
    csrf = get_token(request) if organiser or request.user.is_authenticated else ""
    for rnd in table.rounds:
        shown = rnd.boards[:ARENA_BOARDS_SHOWN] if rnd.number is None else rnd.boards
        rnd.html = listing.boards_html(event.code, shown, organiser, csrf)
    layout = "tables" if event.kind == Event.Kind.SWISS and services.is_table(event) else event.kind
    rows_html = listing.rows_html(
        event.code, layout, table.rows, organiser, event.status == Event.Status.FINISHED, csrf
    )
    me = None
    my_board = None
    if request.user.is_authenticated:
        me = Entrant.objects.filter(event=event, user=request.user).first()
        if me is not None:
            my_board = my_pending_board(event, me)
    return {
        "event": event,
        "game_label": services.choice(event).label,
        "layout": layout,
        "table": table,
        "me": me,
        "my_board": my_board,
        "organiser": organiser,
        "rows_html": rows_html,
        "join_key": key,
        "ends_at": services.ends_at(event) if event.kind == Event.Kind.ARENA else None,
        "poll_ms": POLL_MS,
        "board_count": sum(len(r.boards) for r in table.rounds),
        "errors": messages(),
    }


def my_pending_board(event: Event, me: Entrant) -> Board | None:
    pending = Board.objects.filter(event=event, result=Board.Result.PENDING)
    if services.is_table(event):  # a handful of tables: their seats are read here
        return next((b for b in pending.order_by("pk") if me.pk in b.seats), None)
    return pending.filter(a=me).first() or pending.filter(b=me).first()


@require_GET
def page(request: HttpRequest, code: str) -> HttpResponse:
    event = event_of(code)
    ticker.ensure_running()
    key = request.GET.get("key", "")[:40]
    ctx = context(request, event, key)
    if is_organiser(request, event):
        ctx["link"] = request.build_absolute_uri(
            reverse("events:page", args=[event.code])
            + (f"?key={event.join_key}" if event.by_link else "")
        )
    return render(request, "events/event.html", ctx)


@require_GET
@limited("poll")
def live(request: HttpRequest, code: str) -> HttpResponse:
    """The changing part of the page, if it changed since version `v` (else 204)."""
    event = event_of(code)
    ticker.ensure_running()
    if request.GET.get("v") == str(event.version):
        return HttpResponse(status=204)
    response = render(request, "events/_live.html", context(request, event))
    response["X-Event-Version"] = str(event.version)
    response["Cache-Control"] = "no-store"
    return response


def _back(event: Event, error: str | None = None, key: str = "") -> HttpResponse:
    url = reverse("events:page", args=[event.code])
    query = []
    if key:
        query.append(f"key={key}")
    if error:
        query.append(f"error={error}")
    return redirect(url + ("?" + "&".join(query) if query else ""))


@login_required
@require_POST
@limited("write")
def join(request: HttpRequest, code: str) -> HttpResponse:
    event = event_of(code)
    key = request.POST.get("key", "")[:40]
    try:
        services.join(event, request.user, key)
    except EventError as refused:
        return _back(event, refused.code, key)
    return _back(event, key=key)


@login_required
@require_POST
@limited("write")
def seat(request: HttpRequest, code: str, board_id: int) -> HttpResponse:
    """Take your seat at your board: its token from the cache into the usual seat cookie."""
    event = event_of(code)
    board = get_object_or_404(Board, pk=board_id, event=event)
    mine = Entrant.objects.filter(event=event, user=request.user).values_list("pk", flat=True)
    if not set(mine) & set(board.entrant_ids()) or board.match_id is None:
        return HttpResponseForbidden(_("This is not your board."))
    token = services.take_seat(board, request.user.pk)
    url = reverse("matches:play", args=[board.match_id])
    response = redirect(url)
    if token:
        hold_seat(request, response, url, token)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def projector(request: HttpRequest, code: str, board_id: int) -> HttpResponse:
    event = event_of(code)
    board = get_object_or_404(Board.objects.select_related("a__user", "b__user"), pk=board_id)
    if board.event_id != event.pk or board.match_id is None:
        raise Http404
    people = services.board_people(board)
    handles = [e.user.get_username() if e is not None else _("CPU") for e in people]
    # Genpei's two teams side against side; any other board seat against seat.
    teams = services.choice(event).teams
    seats = list(enumerate(handles))
    sides = [seats[: teams[0]], seats[teams[0] :]] if teams else [[seat] for seat in seats]
    config = {
        "match": str(board.match_id),
        "game": event.game,
        "mode": services.MODE,
        "ws": reverse("matches:play", args=[board.match_id]) + "ws/",
        "seats": [],  # a spectator
        "protocol": PROTOCOL_VERSION,
    }
    return render(
        request,
        "events/projector.html",
        {
            "event": event,
            "board": board,
            "handles": handles,
            "sides": sides,
            "config": config,
            # Every card's printed face (all 100, so nothing hints at which are in play).
            "cards": {str(p.number): p.torifuda for p in catalogue.poems()},
        },
    )


@login_required
@require_POST
@limited("write")
def organise(request: HttpRequest, code: str) -> HttpResponse:
    """The organiser's tools: withdraw an entrant, re-pair a board, pause or resume."""
    event = event_of(code)
    if not is_organiser(request, event):
        return HttpResponseForbidden(_("Only the organiser may do this."))
    action = request.POST.get("action")
    now = timezone.now()
    try:
        if action == "withdraw":
            entrant = get_object_or_404(Entrant, pk=_int(request.POST.get("entrant")), event=event)
            services.withdraw(event, entrant, now)
        elif action == "repair":
            board = get_object_or_404(Board, pk=_int(request.POST.get("board")), event=event)
            services.repair_board(event, board, now)
        elif action in ("pause", "resume"):
            services.set_paused(event, action == "pause", now)
        else:
            return HttpResponse(_("Unknown action."), status=400)
    except EventError as refused:
        return _back(event, refused.code)
    return _back(event)


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


@require_GET
def export(request: HttpRequest, code: str, fmt: str) -> HttpResponse:
    event = event_of(code)
    data = standings.export(standings.build(event))
    name = f"event-{event.code}"
    if fmt == "json":
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    response.write("\ufeff")  # so spreadsheet programs read the handles as UTF-8
    writer = csv.writer(response)
    columns = ["place", "handle", "rating", "score", "wins", "games", "buchholz",
               "sonneborn_berger", "withdrawn"]  # fmt: skip
    writer.writerow(columns)
    for row in data["standings"]:
        writer.writerow(["" if row[c] is None else row[c] for c in columns])
    return response
