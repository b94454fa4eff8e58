"""Schema-driven fuzzing of the intake (schemathesis): valid and invalid batches made from the
served OpenAPI schema; the server answers every one with a documented status, never a 500."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from telemetry.models import TelemetryEvent
from telemetry.throttling import COUNTER

# pytest-django has set Django up before collection; the schema view needs no database.
schema = schemathesis.openapi.from_wsgi("/api/telemetry/schema/", get_wsgi_application())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=60
)
schema = schema.include(path="/api/telemetry/events/", method="POST")


@pytest.fixture(autouse=True)
def in_test_transaction(settings):
    settings.TELEMETRY_RATE_LIMIT = (1_000_000, 60)  # fuzz the schema, not the rate limit
    COUNTER.clear()
    # Like Django's test client: keep the WSGI handler from closing the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_intake_never_fails_with_a_server_error(case, db):
    before = TelemetryEvent.objects.count()
    response = case.call()
    case.validate_response(
        response,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
            negative_data_rejection,
        ],
    )
    stored = TelemetryEvent.objects.count() - before
    if response.status_code == 202:
        assert stored == response.json()["accepted"]
    else:
        assert stored == 0  # refused whole
