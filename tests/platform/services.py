"""Skip (locally) or fail (CI) when PostgreSQL and Redis are not given."""

from __future__ import annotations

import os

import pytest


def need_services() -> tuple[str, str]:
    """DATABASE_URL (PostgreSQL) and REDIS_URL, both answering; else skip, or fail in CI."""
    database, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    problems = [f"{n} is not set" for n, v in (("DATABASE_URL", database), ("REDIS_URL", redis_url))
                if not v]  # fmt: skip
    if database and not database.startswith("postgres"):
        problems.append("DATABASE_URL is not PostgreSQL")
    if redis_url:
        import redis

        try:
            redis.Redis.from_url(redis_url, socket_timeout=2).ping()
        except Exception as exc:
            problems.append(f"Redis does not answer ({type(exc).__name__})")
    if problems:
        reason = "needs PostgreSQL and Redis: " + "; ".join(problems)
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return database, redis_url
