"""The match layer's settings: `MATCHES_<NAME>` in Django's settings, else the default
(the table in docs/matches.md, "Settings").

Read once per name and kept: a move and each frame read several (the presence lease's
length for every seat a frame shows, the CPU's delay, the frame limit), and each read went
through Django's lazy settings object, about 3 % of a server's CPU under the flat bench
(issue 40, docs/matches.md). A setting changed at run time (tests: `override_settings`,
pytest-django's `settings` fixture) sends Django's `setting_changed`, which empties the
cache."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed

_MISSING = object()
_read: dict[str, Any] = {}  # name -> the setting's value, or _MISSING (the default applies)


def conf(name: str, default: Any) -> Any:
    value = _read.get(name, _read)
    if value is _read:
        value = _read[name] = getattr(settings, f"MATCHES_{name}", _MISSING)
    return default if value is _MISSING else value


def _changed(**kwargs: Any) -> None:
    _read.clear()


setting_changed.connect(_changed, dispatch_uid="matches.conf")
