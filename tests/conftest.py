"""Shared fixtures. When CI is set, a skipped test fails the run: CI must exercise everything."""

from __future__ import annotations

import os

import pytest

from tests.support.server import AsgiServer, ServerAhead, free_port  # noqa: F401  (re-exported)
from tests.timing_modules import (
    IDLE_PASS_PATHS,
    LONGEST_TIMING_TESTS,
    TIMING_ALONE_MODULES,
    TIMING_MODULES,
)

IN_CI = bool(os.environ.get("CI"))
_skipped: list[str] = []
NEXT_ITEM = pytest.StashKey[object]()
_server_ahead = ServerAhead()


# Modules whose tests share a module-scoped fixture (a CPU ladder, both karuta paths, a node
# run, the decoded voice clips): one parallel worker runs each whole, where every worker
# would build it again.
SHARED_FIXTURE_MODULES = {
    "tests/games/karuta/test_cpu.py",
    "tests/games/karuta/test_sim.py",
    "tests/games/karuta/test_cpu_figures.py",
    "tests/games/karuta/test_voice_build.py",
    "tests/pages/test_kimariji_js.py",
}


def pytest_itemcollected(item):
    """Mark the tests of TIMING_MODULES `timing` (and of TIMING_ALONE_MODULES `timing_alone`)
    as they are collected, before `-m` selects; and those of IDLE_PASS_PATHS that reach no
    database `compute_only` (.ci/run's PostgreSQL + Redis pass leaves them out)."""
    module = item.nodeid.split("::", 1)[0]
    if module in TIMING_MODULES:
        item.add_marker(pytest.mark.timing)
    if module in TIMING_ALONE_MODULES:
        item.add_marker(pytest.mark.timing_alone)
    if module.startswith(_IDLE_PREFIXES) and not _reaches_a_store(item):
        item.add_marker(pytest.mark.compute_only)


_IDLE_PREFIXES = tuple(f"{path}/" for path in IDLE_PASS_PATHS)
# The fixtures through which a test reaches the database (PostgreSQL in CI's second pass).
# Without one of them or a django_db mark, pytest-django refuses any database call, so such a
# test computes the same on any store. (The channel layer, Redis there, is reached through a
# match, which lives in the database: the Bakudan tests' autouse fresh_channel_layer is no
# sign of it.)
STORE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def _reaches_a_store(item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & STORE_FIXTURES)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's default (load) scheduling, except for SHARED_FIXTURE_MODULES. xdist's own
    `--dist loadgroup` cannot do it: with pytest 9 it no longer sees the group marks. Each
    worker still gets its tests in collection order (see below)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in SHARED_FIXTURE_MODULES else nodeid

        def _reschedule(self, node) -> None:
            """One test queued behind the running one, not xdist's two: a worker runs a test
            only once it knows the next, and a third held behind a one-minute test is one a
            free worker could have run (the timing pass ended 30 s after its other workers)."""
            if (
                not node.shutting_down
                and self.workqueue
                and self._pending_of(self.assigned_work[node]) > 1
            ):
                return
            super()._reschedule(node)

    return SharedFixtureScheduling(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """After pytest-django's order: the tests that read the migrated data (poems) stay first,
    before any transactional test flushes it, in every worker (pytest-xdist hands each
    worker its tests in this order). The rest may run in any order: the long ones (the
    LONGEST_TIMING_TESTS, then browser and slow) go first, so that parallel workers do not
    wait at the end on one long test."""
    last_shared = max((i for i, item in enumerate(items) if _reads_migrated_data(item)), default=-1)
    rest = items[last_shared + 1 :]
    rest.sort(key=_run_order)
    items[last_shared + 1 :] = rest


def _run_order(item) -> tuple[bool, bool]:
    """Longest first. After the LONGEST_TIMING_TESTS, the other tests' slow and browser ones
    come first; the timing pass's slow ones come last instead, so that the workers given the
    longest tests have quick ones queued behind them, not the next long one."""
    slow = bool(item.get_closest_marker("slow") or item.get_closest_marker("browser"))
    timing = item.get_closest_marker("timing") is not None
    return item.nodeid not in LONGEST_TIMING_TESTS, slow if timing else not slow


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
    if IN_CI and counts_as_skipped(report):
        _skipped.append(report.nodeid)


def counts_as_skipped(report) -> bool:
    """A skip, but not an expected failure: a strict xfail that names a known gap ran."""
    return bool(report.skipped) and not hasattr(report, "wasxfail")


def pytest_sessionfinish(session, exitstatus):
    _server_ahead.close()  # a server launched for a next test that never came, its parent
    if _skipped and IN_CI:
        session.config.get_terminal_writer().line(
            f"CI is set and {len(_skipped)} test(s) were skipped: failing the run.", red=True
        )
        session.exitstatus = 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Remember which test this process runs next (pytest-xdist hands it over too)."""
    item.stash[NEXT_ITEM] = nextitem
    yield


@pytest.fixture
def asgi_server(request, transactional_db, django_db_blocker):
    """The real ASGI server (daphne) in a subprocess, on the test database: a new process
    for every test, stopped before the database is flushed. When the next test wants one
    too, its process is launched now, so that its start-up overlaps this test (not during a
    `timing` test, whose budgets a start-up beside it would eat into)."""
    server = _server_ahead.take()
    server.wait_until_serving()
    upcoming = request.node.stash.get(NEXT_ITEM, None)
    if (
        upcoming is not None
        and "asgi_server" in getattr(upcoming, "fixturenames", ())
        and request.node.get_closest_marker("timing") is None
    ):
        _server_ahead.launch()
    yield server
    server.stop()
