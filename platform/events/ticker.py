"""The events' tick in a process of its own making, where no Celery beat runs (the embedded
site: EVENTS_TICKER, on by default when MATCHES_CELERY is off). A daemon thread, started by
the first event page a process serves, runs services.tick every second; the claims make
every round start once however many processes tick."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from events import services

log = logging.getLogger(__name__)
TICK_SECONDS = 1.0
_started = threading.Lock()
_thread: threading.Thread | None = None


def _run() -> None:
    while True:
        time.sleep(TICK_SECONDS)
        try:
            services.tick(timezone.now())
        except Exception as exc:  # a database outage: try again next tick
            log.warning("events tick failed: %s", type(exc).__name__)
        finally:
            close_old_connections()


def ensure_running() -> None:
    global _thread
    if not getattr(settings, "EVENTS_TICKER", False):
        return
    with _started:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="events-ticker", daemon=True)
            _thread.start()
