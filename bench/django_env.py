"""Django set up for a benchmark run as a script: the project on sys.path, a throwaway secret
key, plain HTTP, and DATABASE_URL (default: a SQLite file of the benchmark's own under var/;
a PostgreSQL database is created when missing). Call `setup` before importing Django models."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ensure_postgres_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup(settings_module: str, sqlite_name: str) -> None:
    sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module)
    os.environ.setdefault("HTTPS", "0")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # DEBUG off: a throwaway key
    if not os.environ.get("DATABASE_URL"):
        (ROOT / "var").mkdir(exist_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'var' / sqlite_name}"
    if os.environ["DATABASE_URL"].startswith("postgres"):
        ensure_postgres_database(os.environ["DATABASE_URL"])

    import django

    django.setup()


def in_process(var_prefix: str) -> None:
    """Settings for a bench that runs the server's code in its own process, set before Django
    reads them: the site's settings, DEBUG off, a throwaway key and VAR_DIR (so a fresh
    SQLite file), no Redis, and the database `--database-url` names on the command line, if
    one does (else the embedded default)."""
    sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=f"bench-{os.getpid()}-{'k' * 40}",
        VAR_DIR=tempfile.mkdtemp(prefix=var_prefix),
        HTTPS="0",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("REDIS_URL", None)
    if "--database-url" in sys.argv:
        os.environ["DATABASE_URL"] = sys.argv[sys.argv.index("--database-url") + 1]
    else:
        os.environ.pop("DATABASE_URL", None)


class Stopwatch:
    """Wall and this thread's CPU seconds over the blocks it times, and how many."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0
        self.calls = 0

    def __enter__(self) -> Stopwatch:
        self._wall, self._cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall += time.perf_counter() - self._wall
        self.cpu += time.thread_time() - self._cpu
        self.calls += 1
