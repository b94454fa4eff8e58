"""Start the site's real ASGI server (daphne) in a subprocess for end-to-end tests."""

from __future__ import annotations

import ctypes
import json
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
        self.launched_env: dict[str, str] = {}
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
        self.launch()
        self.wait_until_serving(timeout)

    def launch(self, forker: ServerForker | None = None) -> None:
        """The process, without waiting for it: tests/conftest.py's asgi_server launches the
        next test's server while the current test runs (each test still gets a new one).
        With `forker`, a fork of its warm parent when that was started with this server's
        environment."""
        self.log_path.parent.mkdir(exist_ok=True)
        self.launched_env = self.env()
        if forker is not None:
            self.proc = forker.fork(self.launched_env, self.port, self.log_path)
            if self.proc is not None:
                return
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "--access-log", os.devnull,
             "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            env=self.launched_env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def wait_until_serving(self, timeout: float = 60.0) -> None:
        # The wait ends as soon as the server answers; parallel test workers on a busy
        # machine have seen a first answer take over 20 s (start-up, then the first page).
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


class ForkedProcess:
    """A forked server (tests/support/fork_server.py), re-parented to this process: the
    `subprocess.Popen` calls the tests make of a server, on its pid."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


PR_SET_CHILD_SUBREAPER = 36  # prctl(2)


class ServerForker:
    """This test process's warm parent of servers (tests/support/fork_server.py), started on
    first use with the environment of the servers it forks. A server whose environment
    differs (a test's own settings) is started from scratch instead."""

    IGNORED = frozenset({"PYTEST_CURRENT_TEST"})  # differs between a test's phases

    def __init__(self) -> None:
        self.parent: subprocess.Popen | None = None
        self.env: dict[str, str] = {}

    def fork(self, env: dict[str, str], port: int, log_path: Path) -> ForkedProcess | None:
        if not self._start(env):
            return None
        request = json.dumps({"port": port, "log": str(log_path)})
        try:
            self.parent.stdin.write(request + "\n")
            self.parent.stdin.flush()
            return ForkedProcess(int(self.parent.stdout.readline()))
        except (OSError, ValueError):
            self.stop()
            return None

    def _start(self, env: dict[str, str]) -> bool:
        if self.parent is not None and self.parent.poll() is None:
            return _same_env(self.env, env, self.IGNORED)
        if not _become_subreaper():
            return False
        self.env = dict(env)
        self.parent = subprocess.Popen(
            [sys.executable, "-m", "tests.support.fork_server"],
            env=env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        if self.parent.stdout.readline().strip() != "ready":
            self.stop()
            return False
        return True

    def stop(self) -> None:
        if self.parent is not None:
            self.parent.stdin.close()
            try:
                self.parent.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.parent.kill()
                self.parent.wait()
            self.parent = None


def _become_subreaper() -> bool:
    """Orphans of this process's descendants (the forked servers) become its children."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _same_env(launched: dict[str, str], now: dict[str, str], ignored: frozenset[str]) -> bool:
    def strip(env: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in env.items() if k not in ignored}

    return strip(launched) == strip(now)


class ServerAhead:
    """The next test's server, launched while the current test runs.

    Each test that asks for `asgi_server` still gets a process of its own, started for it
    and stopped before its database is flushed, exactly as before: only the process's
    start-up overlaps the test before, and it is a fork of this process's warm parent
    (ServerForker), which imported Django, the apps and daphne once. It serves nothing until
    the test that takes it asks for its first page. A server launched with another
    environment than the taking test would give one (an environment variable a test or a
    fixture set meanwhile) is not used.
    """

    # Differs between a test's phases and says nothing about the server.
    IGNORED = frozenset({"PYTEST_CURRENT_TEST"})

    def __init__(self) -> None:
        self.server: AsgiServer | None = None
        self.forker = ServerForker()

    def launch(self) -> None:
        self.discard()
        self.server = AsgiServer()
        self.server.launch(self.forker)

    def take(self) -> AsgiServer:
        """The launched server if it fits this test, else a new one (not yet serving)."""
        server, self.server = self.server, None
        if server is not None:
            if server.proc.poll() is None and _same_env(
                server.launched_env, server.env(), self.IGNORED
            ):
                return server
            server.stop()
        server = AsgiServer()
        server.launch(self.forker)
        return server

    def discard(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def close(self) -> None:
        """At the end of the session: the launched server and the warm parent go."""
        self.discard()
        self.forker.stop()
