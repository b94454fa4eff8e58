"""The record pages: opened from a match's result screen, shared by their own address.

/play/<match>/record/ (under the match's path, so the seat cookie comes along) finds or
makes the record of a finished match and redirects to /records/<id>/, which names nothing
but the record. A seated player also gets a signed cookie for that record's path only: it
lets them delete the record or keep it longer, and it is not their seat token.
"""

from __future__ import annotations

import gzip
from functools import wraps
from typing import Any

from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST, require_safe

import gamekit
from gamekit import colour_label
from matches import services
from matches.cookies import SEAT_COOKIE
from records import preview, retention, store
from records.models import Record
from records.strings import page_strings
from records.summary import summary

OWNER_COOKIE = "record_seat"
OWNER_SALT = "records.owner"
OWNER_AGE = 400 * 24 * 3600


def record_path(record: Record) -> str:
    return reverse("records:page", args=[record.pk])


@require_safe
def open_record(request: HttpRequest, match_id: Any) -> HttpResponse:
    """From the result screen: the record of this finished match (404 while it runs)."""
    record = store.for_match(match_id)
    if record is None:
        raise Http404
    response = redirect(record_path(record))
    seats = services.token_seats(match_id, request.COOKIES.get(SEAT_COOKIE))
    if seats:
        value = signing.dumps({"r": record.pk, "s": sorted(seats)}, salt=OWNER_SALT)
        response.set_cookie(
            OWNER_COOKIE,
            value,
            max_age=OWNER_AGE,
            path=record_path(record),
            secure=request.is_secure(),
            httponly=True,
            samesite="Lax",
        )
    response["Cache-Control"] = "no-store"
    return response


def owner_seats(request: HttpRequest, record: Record) -> list[int]:
    """The seats of this record's match that the visitor held (from the signed cookie)."""
    try:
        data = signing.loads(request.COOKIES.get(OWNER_COOKIE, ""), salt=OWNER_SALT)
    except signing.BadSignature:
        return []
    if not isinstance(data, dict) or data.get("r") != record.pk:
        return []
    return [s for s in data.get("s", []) if isinstance(s, int)]


def _record_or_404(record_id: str) -> Record:
    record = store.get(record_id)
    if record is None:
        raise Http404
    return record


@require_safe
def page(request: HttpRequest, record_id: str) -> HttpResponse:
    record = _record_or_404(record_id)
    match = record.match
    game = gamekit.registry.get(match.game)
    seats = owner_seats(request, record)
    share_url = request.build_absolute_uri(record_path(record))
    config = {
        "id": record.pk,
        "game": match.game,
        "replay": reverse("records:json", args=[record.pk]),
        "you": seats,
        "game_url": game.url,
        "seats": [
            {
                "index": s.index,
                "colour": s.colour,
                "label": s.handle or colour_label(s.colour),
                "kind": s.kind,
            }
            for s in match.seats.select_related("user").order_by("index")
        ],
    }
    response = render(
        request,
        "records/record.html",
        {
            "record": record,
            "match": match,
            "game": game,
            "summary": summary(match),
            "share_url": share_url,
            "preview_url": request.build_absolute_uri(reverse("records:preview", args=[record.pk])),
            "owner": bool(seats),
            "keep_max_days": store.keep_max_days(),
            "config": config,
            "strings": page_strings(),
            "retention_days": retention.retention_days(),
            "extras_template": select_template(
                [f"records/extras/{match.game}.html", "records/extras/none.html"]
            ),
        },
    )
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_safe
def export(request: HttpRequest, record_id: str) -> HttpResponse:
    """The record as JSON (schema: docs/records.md), gzip-compressed for clients that take it."""
    record = _record_or_404(record_id)
    packed = store.document_gzip(record)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(packed, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(packed), content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="record-{record.pk}.json"'
    response["Cache-Control"] = "private, max-age=300"  # a deleted record goes soon
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


@require_safe
def preview_image(request: HttpRequest, record_id: str) -> HttpResponse:
    record = _record_or_404(record_id)
    response = HttpResponse(preview.png(record), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def seat_only(view):
    """A POST for a seated player of the record's match only (403 for anyone else); the view
    gets the record."""

    @require_POST
    @wraps(view)
    def guarded(request: HttpRequest, record_id: str) -> HttpResponse:
        record = _record_or_404(record_id)
        if not owner_seats(request, record):
            return _forbidden(request)
        return view(request, record)

    return guarded


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@seat_only
def delete(request: HttpRequest, record: Record) -> HttpResponse:
    """A seated player deletes the record now: the match, its log and the record go."""
    store.delete_now(record)
    if wants_json(request):
        response: HttpResponse = JsonResponse({"deleted": True})
    else:
        response = render(request, "records/deleted.html")
    response.delete_cookie(OWNER_COOKIE, path=record_path(record))
    return response


@seat_only
def keep(request: HttpRequest, record: Record) -> HttpResponse:
    """A seated player keeps the record longer (up to RECORDS_KEEP_MAX_DAYS)."""
    store.keep_longer(record)
    if wants_json(request):
        return JsonResponse({"keep_until": record.keep_until.isoformat()})
    return redirect(record_path(record))


def _forbidden(request: HttpRequest) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"code": "not_a_seat"}, status=403)
    return render(request, "records/forbidden.html", status=403)
