"""What a socket's handshake says about its client: headers, cookies, and the language to
answer in, negotiated by Django as for a page (the language cookie, then Accept-Language
with its q-values, then the site's default)."""

from __future__ import annotations

import contextlib
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def cookie(scope: dict[str, Any], name: str) -> str | None:
    raw = headers(scope).get("cookie")
    if not raw:
        return None
    jar = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


def language(scope: dict[str, Any]) -> str:
    request = HttpRequest()  # what Django's negotiation reads of a request: nothing else
    chosen = cookie(scope, settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None:
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = chosen
    accept = headers(scope).get("accept-language")
    if accept:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept
    return translation.get_language_from_request(request, check_path=False)


def speaking(lang: str) -> contextlib.AbstractContextManager:
    """`lang` active while a socket handles a frame or a notice. A socket's task keeps the
    language it activated (at connect, or hello's), so this is mostly a check: a switch
    and back costs each notice more than the check (two context-local writes)."""
    if translation.get_language() == lang:
        return contextlib.nullcontext()
    return translation.override(lang)
