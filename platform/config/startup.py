"""What every long-running process checks before it serves (issue 15): a real SECRET_KEY."""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

MISSING_KEY = (
    "SECRET_KEY is required when DEBUG is off: set SECRET_KEY (or SECRET_KEY_FILE, a file "
    "holding it) to the same long random value on every host (README, Production)."
)


def has_secret_key() -> bool:
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django refuses to hand out an empty key
        return False


def require_secret_key() -> None:
    """Called by config.asgi and config.celery: no server or worker without a key."""
    if not has_secret_key():
        raise ImproperlyConfigured(MISSING_KEY)


@checks.register(checks.Tags.security)
def secret_key_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """`manage.py check` and migrate fail too, not only `check --deploy`."""
    return [] if has_secret_key() else [checks.Error(MISSING_KEY, id="config.E001")]
