"""POST /api/telemetry/events/: a batch of events, strictly checked, stored or refused whole."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema
from rest_framework import status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from gamekit import strictjson
from telemetry.models import TelemetryEvent
from telemetry.schema import (
    ACCEPTED_SCHEMA,
    ERROR_SCHEMA,
    THROTTLED_SCHEMA,
    BatchError,
    batch_json_schema,
    validate_batch,
)
from telemetry.throttling import AddressThrottle

MAX_BODY_BYTES = 16 * 1024


class PlainTextJSONParser(JSONParser):
    """navigator.sendBeacon sends text/plain (no CORS preflight); the body is still JSON."""

    media_type = "text/plain"


class IntakeSchema(AutoSchema):
    """The request schema comes from telemetry.schema, built when the schema is asked for,
    so games registered later (and their settings buckets) appear without a code change."""

    def get_request_serializer(self) -> Any:
        # sendBeacon's text/plain is accepted too, but JSON is the documented way.
        return {"application/json": batch_json_schema()}

    def _get_request_body(self, direction: str = "request") -> Any:
        body = super()._get_request_body(direction)
        if body:
            body["required"] = True
        return body

    def get_response_serializers(self) -> Any:
        return {
            202: ACCEPTED_SCHEMA,
            400: ERROR_SCHEMA,
            413: ERROR_SCHEMA,
            415: ERROR_SCHEMA,
            429: THROTTLED_SCHEMA,
        }


def _reject(field: str, message: Any) -> Response:
    return Response({"errors": {field: [str(message)]}}, status=status.HTTP_400_BAD_REQUEST)


def _too_large(message: Any) -> Response:
    return Response(
        {"errors": {"body": [str(message)]}}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    )


class EventIntake(APIView):
    authentication_classes: list = []  # no session, so no CSRF and no user link
    permission_classes = [AllowAny]
    throttle_classes = [AddressThrottle]
    parser_classes = [JSONParser, PlainTextJSONParser]
    schema = IntakeSchema()

    def dispatch(self, request, *args, **kwargs):
        # Outside i18n_patterns LocaleMiddleware picks the default language (Japanese);
        # errors follow the client's cookie or Accept-Language instead.
        language = translation.get_language_from_request(request, check_path=False)
        with translation.override(language):
            return super().dispatch(request, *args, **kwargs)

    def post(self, request) -> Response:
        limit = getattr(settings, "TELEMETRY_MAX_BODY_BYTES", MAX_BODY_BYTES)
        too_big = _("The body is larger than %(limit)d bytes.") % {"limit": limit}
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            return _reject("body", too_big)  # refused before reading it
        media_type = (request.content_type or "").split(";")[0].strip().lower()
        if media_type and media_type not in ("application/json", "text/plain"):
            # 415, with the reason in the same JSON shape as every other refusal.
            return Response(
                {"errors": {"body": [str(_("Send JSON (application/json or text/plain)."))]}},
                status=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            )
        try:
            body = request.body
        except RequestDataTooBig:
            # A chunked body (no length to refuse it by) past DATA_UPLOAD_MAX_MEMORY_SIZE:
            # Django stopped reading it. Answered like every refusal, not as an HTML 400.
            return _too_large(too_big)
        if len(body) > limit:
            return _reject("body", too_big)
        try:
            data = strictjson.parse(body, unique_keys=True)
            # JSON's \ud800 escapes decode to lone surrogates, which no UTF-8 answer can
            # echo back (they made the error renderer fail with a 500): refused with the rest.
            strictjson.check(data)
        except (strictjson.NotJSON, strictjson.Unfit):
            return _reject("body", _("The body is not valid JSON."))
        try:
            rows = validate_batch(data)
        except BatchError as error:
            return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)
        TelemetryEvent.objects.bulk_create([TelemetryEvent(**row) for row in rows])
        return Response({"accepted": len(rows)}, status=status.HTTP_202_ACCEPTED)
