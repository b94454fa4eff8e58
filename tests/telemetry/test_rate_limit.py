"""The in-memory rate limit: bounded, expiring, keyed by an HMAC of the address."""

import json

import pytest

from telemetry.throttling import COUNTER, WindowCounter, address_key
from tests.telemetry.helpers import ENDPOINT, batch


def test_counts_per_key_and_refuses_past_the_limit():
    counter = WindowCounter()
    hits = [counter.hit(b"a", limit=3, window=60, max_keys=10, now=100.0) for _ in range(4)]
    assert hits[:3] == [0.0, 0.0, 0.0]
    assert hits[3] == pytest.approx(60.0)
    assert counter.hit(b"b", limit=3, window=60, max_keys=10, now=100.0) == 0.0


def test_the_window_expires():
    counter = WindowCounter()
    for _ in range(4):
        counter.hit(b"a", limit=3, window=60, max_keys=10, now=100.0)
    assert counter.hit(b"a", limit=3, window=60, max_keys=10, now=130.0) == pytest.approx(30.0)
    assert counter.hit(b"a", limit=3, window=60, max_keys=10, now=160.0) == 0.0


def test_memory_stays_bounded_and_expired_entries_go():
    counter = WindowCounter()
    for i in range(1000):
        counter.hit(str(i).encode(), limit=3, window=60, max_keys=100, now=100.0)
    assert len(counter) == 100
    counter.hit(b"late", limit=3, window=60, max_keys=100, now=200.0)
    assert len(counter) == 1


def test_keys_are_an_hmac_not_the_address():
    key = address_key("203.0.113.9")
    assert len(key) == 16 and b"203.0.113.9" not in key
    assert key == address_key("203.0.113.9") != address_key("203.0.113.10")


@pytest.mark.django_db
def test_a_flood_gets_429_and_other_clients_do_not(client, settings):
    settings.TELEMETRY_RATE_LIMIT = (5, 60)
    COUNTER.clear()
    body = json.dumps(batch())
    codes = [
        client.post(
            ENDPOINT, body, content_type="application/json", REMOTE_ADDR="198.51.100.7"
        ).status_code
        for _ in range(8)
    ]
    assert codes == [202] * 5 + [429] * 3
    refused = client.post(ENDPOINT, body, content_type="application/json",
                          REMOTE_ADDR="198.51.100.7")  # fmt: skip
    assert int(refused["Retry-After"]) > 0
    other = client.post(ENDPOINT, body, content_type="application/json", REMOTE_ADDR="198.51.100.8")
    assert other.status_code == 202
    # A forged X-Forwarded-For does not buy a fresh allowance.
    forged = client.post(ENDPOINT, body, content_type="application/json",
                         REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="192.0.2.1")  # fmt: skip
    assert forged.status_code == 429
    COUNTER.clear()
