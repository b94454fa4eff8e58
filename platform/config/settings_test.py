"""Test overrides: plain HTTP, fast hashing, a throwaway game app, a file-backed test DB."""

import os

os.environ.setdefault("HTTPS", "0")
# DEBUG is off in tests, so a key is required; servers started by tests inherit this one.
os.environ.setdefault("SECRET_KEY", "tests-only-key-never-used-in-production-" + "x" * 20)

from config.settings import *  # noqa: F403
from config.settings import BASE_DIR, DATABASES, INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.fixtures.demo_game"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not :memory:, so a server started by a test (subprocess) sees the same data.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / "test-db.sqlite3")}

# Matches: quick CPU moves, no Celery worker in the test run (the in-process driver plays).
MATCHES_CPU_DELAY_MS = 20
MATCHES_CELERY = False

# django-axes wants a request in every authenticate() call, which the test client's
# login() does not pass; the lockout tests switch it on (tests/platform/test_hardening.py).
AXES_ENABLED = False
