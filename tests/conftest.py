"""Shared fixtures. When CI is set, a skipped test fails the run: CI must exercise everything."""

from __future__ import annotations

import os

import pytest

from tests.support.server import AsgiServer, free_port  # noqa: F401  (re-exported for tests)

IN_CI = bool(os.environ.get("CI"))
_skipped: list[str] = []


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """After pytest-django's order: the tests that read the migrated data (poems) stay first,
    before any transactional test flushes it, in every worker (pytest-xdist hands each
    worker its tests in this order). The rest may run in any order: the long ones (browser,
    slow) go first, so that parallel workers do not wait at the end on one long test."""
    last_shared = max((i for i, item in enumerate(items) if _reads_migrated_data(item)), default=-1)
    rest = items[last_shared + 1 :]
    rest.sort(
        key=lambda item: not (item.get_closest_marker("slow") or item.get_closest_marker("browser"))
    )
    items[last_shared + 1 :] = rest


def _reads_migrated_data(item) -> bool:
    """pytest-django's first group: database tests in a transaction that is rolled back."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    transactional = "transactional_db" in fixtures or "live_server" in fixtures
    if marker is not None:
        transactional |= bool(
            marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
        )
        transactional |= bool(marker.args and marker.args[0])
    return not transactional and (marker is not None or "db" in fixtures)


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
