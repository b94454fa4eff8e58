"""Shared fixtures. When CI is set, a skipped test fails the run: CI must exercise everything."""

from __future__ import annotations

import os

import pytest

from tests.support.server import AsgiServer, free_port  # noqa: F401  (re-exported for tests)

IN_CI = bool(os.environ.get("CI"))
_skipped: list[str] = []


def pytest_runtest_logreport(report):
    if report.skipped and IN_CI:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if _skipped and IN_CI:
        session.config.get_terminal_writer().line(
            f"CI is set and {len(_skipped)} test(s) were skipped: failing the run.", red=True
        )
        session.exitstatus = 1


@pytest.fixture
def asgi_server(transactional_db, django_db_blocker):
    """The real ASGI server (daphne) in a subprocess, on the test database."""
    server = AsgiServer()
    server.start()
    yield server
    server.stop()
