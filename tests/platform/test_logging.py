"""Production logs: JSON lines, one formatter, no addresses even inside tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDRESSES = ["10.1.2.3", "192.0.2.44", "2001:db8::1", "203.0.113.9"]
SCRIPT = """
import logging
log = logging.getLogger("probe")
log.info("served 203.0.113.9 a page")
try:
    raise ConnectionError("connect to 10.1.2.3:6379 and [2001:db8::1]:5432 refused")
except ConnectionError:
    log.exception("lost the broker while serving 192.0.2.44")
logging.getLogger("django.request").error("Internal Server Error: /x", exc_info=False)
"""


def _run(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "LOG_FORMAT")}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="k" * 50,
        VAR_DIR=str(tmp_path),
        **extra,
    )
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, ROOT / "manage.py", "shell", "--no-imports", "-c", SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


def test_production_logs_are_json_lines_without_addresses(tmp_path):
    result = _run(tmp_path, DEBUG="0")
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    by_logger = {r["logger"]: r for r in records}
    assert by_logger["probe"]["level"] == "ERROR"
    assert "ConnectionError" in by_logger["probe"]["exc"]
    assert "Traceback" in by_logger["probe"]["exc"]
    assert set(records[0]) >= {"time", "level", "logger", "message"}
    assert "django.request" in by_logger
    for address in ADDRESSES:
        assert address not in result.stderr, address
    assert "[address]" in by_logger["probe"]["exc"]


def test_plain_text_on_request_and_still_no_addresses(tmp_path):
    result = _run(tmp_path, DEBUG="0", LOG_FORMAT="plain")
    assert "ERROR probe: lost the broker while serving [address]" in result.stderr
    assert "Traceback" in result.stderr
    for address in ADDRESSES:
        assert address not in result.stderr, address
