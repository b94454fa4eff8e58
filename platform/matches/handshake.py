"""What a socket's handshake says about its client: headers, cookies, and the language to
answer in (the language cookie, then Accept-Language, then the site's default)."""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings


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
    languages = dict(settings.LANGUAGES)
    chosen = cookie(scope, settings.LANGUAGE_COOKIE_NAME)
    if chosen in languages:
        return chosen
    accept = headers(scope).get("accept-language", "")
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()
        for candidate in (code, code.split("-")[0], "zh-hans" if code.startswith("zh") else ""):
            if candidate in languages:
                return candidate
    return settings.LANGUAGE_CODE
