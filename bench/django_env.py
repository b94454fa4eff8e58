"""Django set up for a benchmark run as a script: the project on sys.path, a throwaway secret
key, plain HTTP, and DATABASE_URL (default: a SQLite file of the benchmark's own under var/;
a PostgreSQL database is created when missing). Call `setup` before importing Django models."""

from __future__ import annotations

import os
import secrets
import sys
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
