"""Rate limits on the account endpoints a script could hammer: per client address, in this
process's memory only (the telemetry intake's counter: an HMAC of the address under a key
made at start-up, never stored or logged; docs/requirements.md §6)."""

from __future__ import annotations

import functools
import time

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _

from telemetry.throttling import WindowCounter, address_key, client_address, rate_key

# scope -> (requests, seconds); settings.PLAYERS_RATE_LIMITS overrides any of them.
DEFAULT_LIMITS = {
    "signup": (10, 60),  # handle checks, passkey and password sign-ups
    "signin": (20, 60),  # passkey options and assertions, password sign-ins
    "code": (10, 60),  # one-time codes and recovery codes: guesses
    "account": (30, 60),  # signed-in changes, exports, new codes
    "profile": (60, 60),  # public profile pages (each reads a player's games)
}
_COUNTERS: dict[str, WindowCounter] = {}


def limits(scope: str) -> tuple[int, int]:
    return getattr(settings, "PLAYERS_RATE_LIMITS", {}).get(scope, DEFAULT_LIMITS[scope])


def allowed(request, scope: str) -> bool:
    limit, window = limits(scope)
    counter = _COUNTERS.setdefault(scope, WindowCounter())
    key = address_key(rate_key(client_address(request)))
    return counter.hit(key, limit, window, 10_000, time.monotonic()) == 0.0


def limited(scope: str, methods: tuple[str, ...] = ("POST",)):
    """Counts the view's requests of these methods (POST: every change and every guess)."""

    def wrap(view):
        @functools.wraps(view)
        def inner(request, *args, **kwargs):
            if request.method in methods and not allowed(request, scope):
                return HttpResponse(
                    _("Too many attempts. Please wait a minute and try again."),
                    status=429,
                    content_type="text/plain; charset=utf-8",
                )
            return view(request, *args, **kwargs)

        return inner

    return wrap


def reset() -> None:
    for counter in _COUNTERS.values():
        counter.clear()
