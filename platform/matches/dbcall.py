"""Database work for the match consumer and driver, run on asgiref's thread-sensitive thread.

Channels' `database_sync_to_async` closes the connection after every call, because
CONN_MAX_AGE is 0 (settings.py: under ASGI each HTTP request may get a thread of its
own, and persistent connections there pile up). Match sockets are different: all
their calls run on one long-lived thread, so its one connection is kept open between
calls. Reopening it cost more than the move itself (a SQLite connection registers its
functions and pragmas on every open; PostgreSQL takes one from the pool and resets it).
A connection that failed and is no longer usable is still closed, as Django would.
"""

from __future__ import annotations

from asgiref.sync import SyncToAsync
from django.db import connections


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


class db_call(SyncToAsync):
    """`db_call(f)(*args)`: like `channels.db.database_sync_to_async`, keeping the connection."""

    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            drop_broken_connections()
