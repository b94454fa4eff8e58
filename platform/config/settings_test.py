"""Test overrides: plain HTTP, fast hashing, a throwaway game app, a file-backed test DB."""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("HTTPS", "0")
# DEBUG is off in tests, so a key is required; servers started by tests inherit this one.
os.environ.setdefault("SECRET_KEY", "tests-only-key-never-used-in-production-" + "x" * 20)


def _per_worker_environment() -> None:
    """Under pytest-xdist each worker (gw0, gw1, …) gets a var/ folder of its own (test
    database, Celery broker, logs) and, with REDIS_URL, a Redis database of its own: the
    URL's number plus the worker's. Set in the environment, so that servers a test starts
    inherit them; the marker keeps those servers from shifting the number again."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker or os.environ.get("TEST_WORKER") == worker:
        return
    os.environ["TEST_WORKER"] = worker
    var = os.environ.get("VAR_DIR") or Path(__file__).resolve().parents[2] / "var"
    os.environ["VAR_DIR"] = str(Path(var) / worker)
    if redis_url := os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = redis_for_worker(redis_url, int(worker.removeprefix("gw")))


def redis_for_worker(url: str, index: int) -> str:
    """redis://host:port/N → redis://host:port/(N + index)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + index}"))


_per_worker_environment()

from config.settings import *  # noqa: E402, F403
from config.settings import DATABASES, INSTALLED_APPS, VAR_DIR  # noqa: E402

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
    # pytest-django adds the xdist worker's suffix (test-db.sqlite3_gw0).
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Matches: quick CPU moves, no Celery worker in the test run (the in-process driver plays).
MATCHES_CPU_DELAY_MS = 20
MATCHES_CELERY = False
RATINGS_CELERY = False  # the receiver applies a finish itself (tests/ratings queue it too)
# No ticker thread in the test process (it would touch the database behind the tests); a
# server a test starts for events asks for one (tests/browser/test_events.py).
EVENTS_TICKER = os.environ.get("EVENTS_TICKER") == "1"

# django-axes wants a request in every authenticate() call, which the test client's
# login() does not pass; the lockout tests switch it on (tests/platform/test_hardening.py).
AXES_ENABLED = False

# Karuta's menu also offers the engine's fastest pace, 20 kana a second (games/karuta/forms.py,
# pace_choices): browser tests that play whole games, and do not measure the pace, choose it,
# since the server reads in real time. Never set in production (config/settings.py).
KARUTA_EXTRA_PACES = (20,)
# And smaller poem sets, the first 10 or 12 poems of the set chosen (games/karuta/forms.py,
# poem_set_sizes): the browser tests that play chirashi or solo practice to the end read
# every poem of the set in real time; those about the flow, not the 20 cards, read fewer.
KARUTA_EXTRA_POEM_SET_SIZES = (10, 12)

# The lobby: quick waves, and a CPU offered after 3 s instead of 20 (browser tests wait less).
LOBBY_WAVE_SECONDS = 2
LOBBY_CPU_OFFER_SECONDS = 3
