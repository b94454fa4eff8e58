"""A tiny HTTP client with cookies and CSRF, as a browser would post the menu form."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.parse
import urllib.request
from typing import Any


class WebClient:
    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.status, response.read().decode()

    def post(self, path: str, data: dict[str, Any], as_json: bool = True) -> tuple[int, Any]:
        if self.cookie("csrftoken") is None:
            self.get("/")  # the language form on every page sets the CSRF cookie
        request = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(data).encode(),
            headers={
                "X-CSRFToken": self.cookie("csrftoken") or "",
                "Accept": "application/json" if as_json else "text/html",
            },
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                body = response.read().decode()
                status = response.status
        except urllib.error.HTTPError as error:
            body, status = error.read().decode(), error.code
        return status, (json.loads(body) if as_json else body)
