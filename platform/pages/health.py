"""GET /healthz: can this process serve? For the proxy and the service manager.

Checks the database, the channel layer and the Celery broker, each with a short
timeout. The answer names each part and says ok or failed, nothing else: no
addresses, versions, error texts or settings (they would tell a visitor about the
host); the log gets the kind of each failure.

The answer is kept for CACHE_S: while a service is down each failing check waits for its
timeout (2.07 s a call with Redis down, 6.2 s for 20 calls at once, measured on daphne), and
a proxy or monitor polling it should not pile those up. Callers during a check wait for it
and take its answer.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)
TIMEOUT_S = 3
CACHE_S = 2.0  # how long an answer is given again without asking
clock = time.monotonic
_lock = threading.Lock()
_last: tuple[float, dict[str, str]] | None = None  # (when, results)


def forget() -> None:
    """Drop the kept answer (tests)."""
    global _last
    with _lock:
        _last = None


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _send_and_receive() -> None:
    import asyncio

    layer = get_channel_layer()
    channel = await asyncio.wait_for(layer.new_channel("healthz."), TIMEOUT_S)
    marker = uuid.uuid4().hex
    await asyncio.wait_for(layer.send(channel, {"type": "healthz", "marker": marker}), TIMEOUT_S)
    message = await asyncio.wait_for(layer.receive(channel), TIMEOUT_S)
    if message.get("marker") != marker:
        raise RuntimeError("the channel layer returned another message")


def _channel_layer() -> None:
    async_to_sync(_send_and_receive)()


def _broker() -> None:
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT_S)
        if settings.CELERY_BROKER_URL.startswith("redis"):
            conn.default_channel.client.ping()


CHECKS = {"database": _database, "channel_layer": _channel_layer, "broker": _broker}


def _results() -> dict[str, str]:
    global _last
    with _lock:  # one check at a time; those waiting take its answer
        if _last is not None and clock() - _last[0] < CACHE_S:
            return _last[1]
        results = _check_all()
        _last = (clock(), results)
        return results


def _check_all() -> dict[str, str]:
    results = {}
    for name, check in CHECKS.items():
        try:
            check()
            results[name] = "ok"
        except Exception as exc:
            # One line naming the failure's kind goes to the log, not the answer: no
            # traceback on every call while a service is down (nginx lets only this host
            # call it, deploy/nginx/hyakunin.conf).
            log.warning("healthz: %s check failed: %s", name, type(exc).__name__)
            results[name] = "failed"
    return results


@never_cache
@require_safe
def healthz(request):
    results = _results()
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failed", "checks": results}, status=200 if healthy else 503
    )
