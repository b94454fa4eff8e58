"""Start the site's real ASGI server (daphne) in a subprocess for end-to-end tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """A URL for the database the tests are using right now (the test database)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{db['NAME']}"


class AsgiServer:
    def __init__(self, port: int | None = None, extra_env: dict[str, str] | None = None):
        self.port = port or free_port()
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        self.log_path = ROOT / "var" / f"daphne-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            DJANGO_SETTINGS_MODULE=os.environ.get("SERVER_SETTINGS", "config.settings_test"),
            DATABASE_URL=database_url(),
            HTTPS="0",
        )
        env.update(self.extra_env)
        return env

    def start(self, timeout: float = 60.0) -> None:
        # The wait ends as soon as the server answers; parallel test workers on a busy
        # machine have seen a first answer take over 20 s (start-up, then the first page).
        self.log_path.parent.mkdir(exist_ok=True)
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "--access-log", os.devnull,
             "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            env=self.env(), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"daphne did not answer within {timeout}s:\n{self.log()}")

    def kill(self) -> None:
        """kill -9: no chance to flush or say goodbye."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
