"""Parallel test workers (pytest-xdist) share nothing that one could spoil for another: each
has its own var/ folder (test database, Celery broker) and Redis database, and a server a
test starts inherits its worker's (platform/config/settings_test.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = """
import json, os, subprocess, sys
from django.conf import settings
mine = {"var": str(settings.VAR_DIR), "redis": settings.REDIS_URL,
        "test_db": settings.DATABASES["default"].get("TEST", {}).get("NAME"),
        "broker": str(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in", ""))}
if len(sys.argv) > 1:  # as a server started by a test: the same environment, again
    child = subprocess.run([sys.executable, "-c", sys.argv[1]], capture_output=True,
                           text=True, check=True, env=dict(os.environ))
    mine["child"] = json.loads(child.stdout)
print(json.dumps(mine))
"""


def settings_seen(*, with_child: bool = False, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("VAR_DIR", "TEST_WORKER")}
    base.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="config.settings_test",
        **env,
    )
    for name in ("PYTEST_XDIST_WORKER", "REDIS_URL", "DATABASE_URL"):
        if name not in env:
            base.pop(name, None)
    code = "import django; django.setup()\n" + SHOW
    done = subprocess.run(
        [sys.executable, "-c", code, *([code] if with_child else [])],
        env=base, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_each_worker_has_its_own_var_folder_and_redis_database():
    seen = settings_seen(
        with_child=True, PYTEST_XDIST_WORKER="gw3", REDIS_URL="redis://127.0.0.1:6379/9"
    )
    assert seen["var"] == str(ROOT / "var" / "gw3")
    assert seen["test_db"] == str(ROOT / "var" / "gw3" / "test-db.sqlite3")
    assert seen["redis"] == "redis://127.0.0.1:6379/12"  # 9 + worker 3
    # A server started by that worker's test inherits the same, not shifted again.
    assert seen["child"] == {k: v for k, v in seen.items() if k != "child"}


def test_one_process_keeps_var_and_the_given_redis_database():
    seen = settings_seen(REDIS_URL="redis://127.0.0.1:6379/9")
    assert seen["var"] == str(ROOT / "var")
    assert seen["test_db"] == str(ROOT / "var" / "test-db.sqlite3")
    assert seen["redis"] == "redis://127.0.0.1:6379/9"


def test_embedded_workers_keep_their_brokers_apart():
    first = settings_seen(PYTEST_XDIST_WORKER="gw0")
    second = settings_seen(PYTEST_XDIST_WORKER="gw1")
    assert first["redis"] == second["redis"] == ""
    assert first["broker"] != second["broker"]
    assert first["broker"].startswith(first["var"]) and second["broker"].startswith(second["var"])
