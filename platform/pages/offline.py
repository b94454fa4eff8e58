"""Offline pages: the service worker at /sw.js and the list of pages it keeps.

A short hand-written worker rather than Workbox: the site has no bundler or build step,
and the worker needs only two rules — the pages listed here network-first (a fresh
page when online, the last copy offline) and /static/ files from the cache, refreshed in
the background. Workbox's strategies would do the same through its loader and a dozen
modules to vendor and keep current. Play screens, the API and the match server are never
cached: they need the server and say so.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from gamekit import registry

# Named routes that open offline once visited: the trainer, the kimariji list, the rules.
ROUTES = ("pages:home", "pages:kimariji", "pages:credits", "telemetry:privacy", "karuta:trainer")


def _routes() -> list[str]:
    return [*ROUTES, *(f"{game.slug}:index" for game in registry.all())]


@cache
def offline_paths() -> tuple[str, ...]:
    """Every offline page's path, in every language."""
    paths = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for name in _routes():
                try:
                    paths.append(reverse(name))
                except NoReverseMatch:
                    continue  # a game without pages, or the trainer's game not installed
    return tuple(dict.fromkeys(paths))


@require_safe
def service_worker(request):
    paths = list(offline_paths())
    # A new list (or new code) is a new worker: the browser installs it and drops old caches.
    source = render_to_string("pages/sw.js", {"pages_json": "[]", "version": ""})
    version = hashlib.sha256((json.dumps(paths) + source).encode()).hexdigest()[:12]
    body = render_to_string(
        "pages/sw.js",
        {"pages_json": json.dumps(paths), "version": version, "static_url": settings.STATIC_URL},
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # the browser checks for a new worker each visit
    return response
