"""A chunked body (no Content-Length) too large for Django to read is refused with the API's
JSON 413 through the real server (issue 25), not an HTML 400 and a logged traceback; a body
over the intake's own limit is still its JSON 400."""

from __future__ import annotations

import http.client
import json

import pytest

from tests.telemetry.helpers import ENDPOINT

pytestmark = pytest.mark.django_db(transaction=True)


def post(port: int, body: bytes, chunked: bool) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if chunked:
            pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))
            conn.request("POST", ENDPOINT, pieces, headers, encode_chunked=True)
        else:
            conn.request("POST", ENDPOINT, body, headers)
        response = conn.getresponse()
        return response.status, response.headers.get("Content-Type", ""), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    "size, chunked, code",
    [(3_000_000, True, 413), (20_000, True, 400), (20_000, False, 400)],
    ids=["chunked-past-django", "chunked", "length"],
)
def test_a_body_too_large_gets_a_json_refusal(asgi_server, size, chunked, code):
    body = json.dumps({"events": ["x" * size]}).encode()
    status, kind, content = post(asgi_server.port, body, chunked)
    assert status == code, (status, content[:200])
    assert kind.startswith("application/json")
    assert list(json.loads(content)["errors"]) == ["body"]
    assert "Traceback" not in asgi_server.log()
