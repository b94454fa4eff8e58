"""Shared fixtures. When CI is set, a skipped test fails the run: CI must exercise everything."""

from __future__ import annotations

import os

import pytest

from tests.support.server import AsgiServer, ServerAhead, free_port  # noqa: F401  (re-exported)

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


# Modules that hold the server to wall-clock budgets of a few milliseconds (the karuta judge's
# late window, link delays, the voice's 10 ms schedule, recovery deadlines). They are marked
# `timing`, and ./dev.py runs them after the parallel pass on two workers (one per core), so
# that no test of theirs shares the cores with more than one other.
TIMING_MODULES = {
    "tests/fairness/test_delay_proxy.py",
    "tests/fairness/test_fairness.py",
    "tests/matches/test_karuta_online.py",
    "tests/matches/test_link_delay.py",
    "tests/matches/test_recovery.py",
    "tests/browser/test_karuta_voice.py",
}
# Of those, the ones also marked `timing_alone`, run last in one process: deadlines of 2 s
# against 0.5 s polls, each test running two servers and a Redis of its own. (Beside another
# timing test a CPU move was once seen after 2.014-2.018 s, 2 runs of 2; the cause was a
# timer firing early, since fixed in matches/driver.py, but the margin is thin.)
TIMING_ALONE_MODULES = {"tests/matches/test_recovery.py"}
# The longest timing tests (about 55 s and 53 s alone, 2 Dec): they start the timing pass,
# one on each worker, so that neither is left to run by itself at the end.
LONGEST_TIMING_TESTS = (
    "tests/matches/test_karuta_online.py::"
    "test_friends_play_competitive_and_chirashi_to_the_end_with_identical_logs",
    "tests/fairness/test_fairness.py::test_contested_cards_split_fairly_over_unequal_links",
)


def pytest_itemcollected(item):
    """Mark the tests of TIMING_MODULES `timing` (and of TIMING_ALONE_MODULES `timing_alone`)
    as they are collected, before `-m` selects."""
    module = item.nodeid.split("::", 1)[0]
    if module in TIMING_MODULES:
        item.add_marker(pytest.mark.timing)
    if module in TIMING_ALONE_MODULES:
        item.add_marker(pytest.mark.timing_alone)


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
    rest.sort(
        key=lambda item: (
            item.nodeid not in LONGEST_TIMING_TESTS,
            not (item.get_closest_marker("slow") or item.get_closest_marker("browser")),
        )
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
    if IN_CI and counts_as_skipped(report):
        _skipped.append(report.nodeid)


def counts_as_skipped(report) -> bool:
    """A skip, but not an expected failure: a strict xfail that names a known gap ran."""
    return bool(report.skipped) and not hasattr(report, "wasxfail")


def pytest_sessionfinish(session, exitstatus):
    _server_ahead.discard()  # a server launched for a next test that never came
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
