"""matches.dbcall: the sockets' database thread keeps its connection between calls and
closes one that broke, through asgiref's public sync_to_async only."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.dbcall import background_call, db_call

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_threads"),
]


def _open_connection() -> int:
    connection.ensure_connection()
    return id(connection.connection)


async def test_the_connection_is_kept_between_calls():
    first = await db_call(_open_connection)()
    assert await db_call(_open_connection)() == first


async def test_a_broken_connection_is_closed_and_the_error_still_raised():
    def broken() -> None:
        connection.ensure_connection()
        connection.errors_occurred = True
        connection.is_usable = lambda: False  # what a dropped server looks like
        raise RuntimeError("query failed")

    with pytest.raises(RuntimeError, match="query failed"):
        await db_call(broken)()

    def state() -> tuple[object, bool]:
        del connection.is_usable  # the instance attribute set above
        return connection.connection, connection.errors_occurred

    assert await db_call(state)() == (None, True)


async def test_a_usable_connection_with_an_error_is_kept():
    def failed_query() -> int:
        connection.ensure_connection()
        connection.errors_occurred = True
        return id(connection.connection)

    kept = await db_call(failed_query)()
    assert await db_call(lambda: (id(connection.connection), connection.errors_occurred))() == (
        kept,
        False,
    )


def _vendor() -> str:
    return connection.vendor


async def test_a_background_job_holds_up_no_act_where_the_database_takes_two_writers():
    """The heartbeat's jobs (presence renewal, the sweep) run on their own thread on
    PostgreSQL: an act's call finishes while one is still running. On SQLite (one writer)
    they share the acts' thread."""
    import asyncio
    import threading

    release = threading.Event()

    def long_job() -> str:
        release.wait(timeout=30)
        return threading.current_thread().name

    job = asyncio.ensure_future(background_call(long_job)())
    try:
        if await db_call(_vendor)() == "sqlite":
            assert not release.is_set()
            release.set()
            assert await job == await db_call(lambda: threading.current_thread().name)()
            return
        # The act's call answers while the job is blocked (the job would wait 30 s).
        act_thread = await asyncio.wait_for(
            db_call(lambda: threading.current_thread().name)(), timeout=10
        )
        assert not job.done()
        release.set()
        assert await job != act_thread
    finally:
        release.set()
