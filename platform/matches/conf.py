"""The match layer's settings: `MATCHES_<NAME>` in Django's settings, else the default
(the table in docs/matches.md, "Settings")."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def conf(name: str, default: Any) -> Any:
    return getattr(settings, f"MATCHES_{name}", default)
