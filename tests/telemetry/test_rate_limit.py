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


def _request(rf, remote, forwarded=None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return rf.post(ENDPOINT, **meta)


def test_behind_one_proxy_the_client_is_the_right_most_untrusted_entry(rf, settings):
    from telemetry.throttling import client_address

    settings.TRUSTED_PROXIES = 1
    # nginx appends what it saw; whatever the client sent stays on the left.
    assert client_address(_request(rf, "127.0.0.1", "198.51.100.7")) == "198.51.100.7"
    forged = _request(rf, "127.0.0.1", "192.0.2.1, 198.51.100.7")
    assert client_address(forged) == "198.51.100.7"
    settings.TRUSTED_PROXIES = 2  # a CDN in front of nginx
    assert client_address(_request(rf, "127.0.0.1", "192.0.2.1, 198.51.100.7, 203.0.113.5")) == (
        "198.51.100.7"
    )
    settings.TRUSTED_PROXIES = 0  # facing the internet: the header is the client's to write
    assert client_address(_request(rf, "198.51.100.7", "192.0.2.1")) == "198.51.100.7"


def test_ipv6_clients_are_counted_per_64():
    from telemetry.throttling import rate_key

    assert rate_key("2001:db8:1:2:aaaa::1") == rate_key("2001:db8:1:2:ffff:1:2:3")
    assert rate_key("2001:db8:1:2::1") != rate_key("2001:db8:1:3::1")
    assert rate_key("::ffff:198.51.100.7") == rate_key("198.51.100.7") == "198.51.100.7"
    assert rate_key("198.51.100.7") != rate_key("198.51.100.8")


@pytest.mark.django_db
def test_forged_forwarded_for_behind_the_proxy_buys_nothing(client, settings):
    """200 requests, each with a fresh forged left-most X-Forwarded-For, from one client
    behind nginx: only the limit is accepted (on main all 200 were)."""
    settings.TELEMETRY_RATE_LIMIT = (30, 60)
    settings.TRUSTED_PROXIES = 1
    COUNTER.clear()
    body = json.dumps(batch())
    codes = [
        client.post(ENDPOINT, body, content_type="application/json", REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"10.{i // 250}.{i % 250}.1, 198.51.100.7").status_code
        for i in range(200)
    ]  # fmt: skip
    assert codes.count(202) == 30 and codes.count(429) == 170
    # Another visitor behind the same proxy has an allowance of its own.
    other = client.post(ENDPOINT, body, content_type="application/json", REMOTE_ADDR="127.0.0.1",
                        HTTP_X_FORWARDED_FOR="198.51.100.8")  # fmt: skip
    assert other.status_code == 202
    COUNTER.clear()


@pytest.mark.django_db
def test_an_ipv6_client_rotating_addresses_in_its_64_is_one_client(client, settings):
    settings.TELEMETRY_RATE_LIMIT = (5, 60)
    COUNTER.clear()
    body = json.dumps(batch())
    codes = [
        client.post(ENDPOINT, body, content_type="application/json",
                    REMOTE_ADDR=f"2001:db8:5:6:{i:x}::1").status_code
        for i in range(8)
    ]  # fmt: skip
    assert codes == [202] * 5 + [429] * 3
    COUNTER.clear()
