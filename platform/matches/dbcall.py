"""Database work for the match consumer and driver, run on asgiref's thread-sensitive thread.

Channels' `database_sync_to_async` closes the connection after every call, because
CONN_MAX_AGE is 0 (settings.py: under ASGI each HTTP request may get a thread of its
own, and persistent connections there pile up). Match sockets are different: all
their calls run on one long-lived thread, so its one connection is kept open between
calls. Reopening it cost more than the move itself (a SQLite connection registers its
functions and pragmas on every open; PostgreSQL takes one from the pool and resets it).
A connection that failed and is no longer usable is still closed, as Django would.

Only asgiref's public `sync_to_async` is used: the function is wrapped, not the thread
machinery (an earlier version subclassed `SyncToAsync.thread_handler`, a private method).

`background_call` is for the periodic jobs (presence renewal and the sweep): on a database
that takes concurrent writers (PostgreSQL) they run on a thread (and connection) of their
own, so a move never waits behind them. A sweep after a connection storm ran 0.8 s on the
one thread, and every act queued behind it (issue 40's stage probe, docs/matches.md).
SQLite takes one writer at a time, so there they stay on the one thread.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.db import connections

P = ParamSpec("P")
R = TypeVar("R")


def drop_broken_connections() -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        if conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]:
            conn.close()  # someone left autocommit off: start clean
        elif conn.errors_occurred:
            if conn.is_usable():
                conn.errors_occurred = False
            else:
                conn.close()


def call_keeping_connection(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """On the database thread: the call, then a broken connection closed (a good one kept)."""
    try:
        return function(*args, **kwargs)
    finally:
        drop_broken_connections()


def db_call(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`await db_call(f)(*args)`: like `channels.db.database_sync_to_async`, keeping the
    connection open between calls."""
    return sync_to_async(_keeping_connection(function), thread_sensitive=True)


def _keeping_connection(function: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(function)
    def on_thread(*args: Any, **kwargs: Any) -> Any:
        return call_keeping_connection(function, *args, **kwargs)

    return on_thread


# One thread: the jobs run one at a time, in order, each beat's after the last one's.
_background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matches-background")


def background_call(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`await background_call(f)(*args)`: like `db_call`, on the background thread where the
    database takes concurrent writers (module docstring)."""
    if connections["default"].vendor == "sqlite":
        return db_call(function)
    return sync_to_async(
        _keeping_connection(function), thread_sensitive=False, executor=_background
    )


async def close_connections() -> None:
    """Close the connections both threads keep open (after any call still running there):
    before the database goes away (a test database dropped, a process stopping)."""
    await db_call(connections.close_all)()
    await background_call(connections.close_all)()  # on SQLite the same thread: nothing left
