"""A rate limit keyed by client address, kept in this process's memory only.

The address never leaves the request: it is turned into an HMAC under a key made
when the process starts (so counters cannot be reversed into addresses, nor
matched across restarts) and counted in a bounded dict whose entries expire.
Nothing goes to the database, a cache server or a log (docs/requirements.md §6). Each server
process counts on its own, which is enough to stop one client flooding.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict

from django.conf import settings
from rest_framework.throttling import BaseThrottle

_KEY = secrets.token_bytes(32)  # made at start-up, never stored


def address_key(address: str) -> bytes:
    return hmac.new(_KEY, address.encode(), hashlib.sha256).digest()[:16]


class WindowCounter:
    """Fixed-window request counts per key, at most `max_keys` keys, least recent dropped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[bytes, tuple[float, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def hit(self, key: bytes, limit: int, window: float, max_keys: int, now: float) -> float:
        """Count a request; 0 if allowed, else the seconds until the window ends."""
        with self._lock:
            self._drop_expired(window, now)
            start, count = self._entries.pop(key, (now, 0))
            if now - start >= window:
                start, count = now, 0
            count += 1
            self._entries[key] = (start, count)  # now the most recent
            while len(self._entries) > max_keys:
                self._entries.popitem(last=False)
            return 0.0 if count <= limit else max(window - (now - start), 0.001)

    def _drop_expired(self, window: float, now: float) -> None:
        # Oldest-used first; stop at the first live entry. Any expired one left behind
        # is reset on its next hit or dropped when it reaches the front.
        while self._entries:
            start, _count = next(iter(self._entries.values()))
            if now - start < window:
                return
            self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


COUNTER = WindowCounter()


def client_address(request) -> str:
    """The client's address as the site's own proxies saw it; never stored or logged.

    settings.TRUSTED_PROXIES is how many proxies of ours stand in front of the server
    (README/deploy: nginx, so 1). Each appends the address it saw to X-Forwarded-For
    and REMOTE_ADDR is the nearest one, so the client is the entry just left of the
    trusted ones. Anything further left came from the client and may be forged. With 0
    (the server faces the internet) the header is ignored and REMOTE_ADDR is the client.
    """
    trusted = int(getattr(settings, "TRUSTED_PROXIES", 0))
    chain = [request.META.get("REMOTE_ADDR") or ""]
    if trusted > 0:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        chain = [a.strip() for a in forwarded.split(",") if a.strip()] + chain
    return chain[max(len(chain) - 1 - trusted, 0)]


def rate_key(address: str) -> str:
    """What one client is counted as: an IPv4 address, or an IPv6 /64 (a home or phone
    network hands each device a /64 and lets it change the lower half at will)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address  # not an address: counted as given (all such share one key)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class AddressThrottle(BaseThrottle):
    """settings.TELEMETRY_RATE_LIMIT = (requests, seconds) per client address."""

    def allow_request(self, request, view) -> bool:
        limit, window = getattr(settings, "TELEMETRY_RATE_LIMIT", (30, 60))
        max_keys = getattr(settings, "TELEMETRY_RATE_MAX_CLIENTS", 10_000)
        # Behind our proxy (TRUSTED_PROXIES) the right-most untrusted X-Forwarded-For
        # entry; never the left-most, which the client writes (see client_address).
        key = address_key(rate_key(client_address(request)))
        self._wait = COUNTER.hit(key, limit, window, max_keys, time.monotonic())
        return self._wait == 0.0

    def wait(self) -> float:
        return self._wait
