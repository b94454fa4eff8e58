"""The kimariji trainer's two events: a drill started / finished, with ranges only."""

import json

import pytest

from telemetry.models import TelemetryEvent
from tests.telemetry.helpers import ENDPOINT, batch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_rate_limit")]


def post(client, body):
    return client.post(ENDPOINT, json.dumps(body), content_type="application/json")


def test_drill_events_are_stored_as_ranges(client):
    events = [
        {"kind": "drill_start", "moves": "10-29"},
        {"kind": "drill_end", "moves": "10-29", "duration": "1-3m"},
    ]
    assert post(client, batch(*events)).status_code == 202
    rows = TelemetryEvent.objects.order_by("pk")
    assert [(r.kind, r.moves, r.duration, r.game) for r in rows] == [
        ("drill_start", "10-29", "", ""),
        ("drill_end", "10-29", "1-3m", ""),
    ]


@pytest.mark.parametrize(
    "event",
    [
        {"kind": "drill_start", "moves": "12"},  # an exact count, not a range
        {"kind": "drill_start", "moves": "1-9", "cards": ["31", "64"]},  # what was drilled
        {"kind": "drill_end", "moves": "1-9", "duration": "lt1m", "poem": "31"},
        {"kind": "drill_end", "moves": "1-9"},  # its length is required
        {"kind": "drill_start", "moves": "1-9", "result": "win"},  # not this kind's field
    ],
)
def test_anything_else_about_a_drill_is_refused(client, event):
    assert post(client, batch(event)).status_code == 400
    assert TelemetryEvent.objects.count() == 0
