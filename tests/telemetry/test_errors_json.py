"""The JSON API answers every error as JSON, bad Unicode included; multipart gets a 415
(issue 15, item 8). Over the real server too: Twisted used to answer multipart itself."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from telemetry.throttling import COUNTER
from tests.telemetry.helpers import ENDPOINT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_allowance():
    COUNTER.clear()
    yield
    COUNTER.clear()


def test_a_lone_surrogate_in_a_field_name_is_a_json_400_not_a_500(client, caplog):
    body = '{"\\ud800": 1}'
    response = client.post(ENDPOINT, body, content_type="application/json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "body" in response.json()["errors"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_lone_surrogates_in_values_and_nested_keys_too(client):
    for body in ('["\\udfff"]', '{"events": [{"\\ud83d": "x"}]}', '{"a": "\\ud800x"}'):
        response = client.post(ENDPOINT, body, content_type="application/json")
        assert response.status_code == 400, body
        assert "errors" in response.json()


def test_multipart_gets_a_json_415(client):
    response = client.post(ENDPOINT, {"a": "1"})  # the test client sends multipart
    assert response.status_code == 415
    assert response.json()["errors"]["body"]


def test_an_unexpected_failure_under_api_is_json(client, monkeypatch):
    from telemetry import api

    def boom(data):
        raise RuntimeError("unexpected")

    monkeypatch.setattr(api, "validate_batch", boom)
    client.raise_request_exception = False
    response = client.post(ENDPOINT, "[]", content_type="application/json")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"errors": {"request": ["Server error."]}}
    missing = client.get("/api/nothing-here/")
    assert missing.status_code == 404 and missing.json()["errors"]


def _post(url: str, body: bytes, content_type: str) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


@pytest.mark.django_db(transaction=True)
def test_over_the_real_server_multipart_and_surrogates_get_json(asgi_server):
    url = asgi_server.url + ENDPOINT
    for content_type, body in [
        ("multipart/form-data", b"junk"),  # no boundary: Twisted's empty 400 on main
        ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data; "
         b'name="a"\r\n\r\n1\r\n--x--\r\n'),
    ]:  # fmt: skip
        status, kind, payload = _post(url, body, content_type)
        assert (status, kind) == (415, "application/json"), payload
        assert json.loads(payload)["errors"]["body"]
    status, kind, payload = _post(url, b'{"\\ud800": 1}', "application/json")
    assert (status, kind) == (400, "application/json"), payload
