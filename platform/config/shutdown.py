"""Leaving the process once daphne has shut down, without waiting on stranded threads.

A request cut off by SIGTERM can leave its Django thread in `async_to_sync`, waiting on a
task it handed to the event loop after the loop stopped for good. The interpreter's exit
joins every such thread (concurrent.futures does, for its executors' workers), so the
process hung until it was killed: 10 s per test server (tests/support/server.py), the unit's
TimeoutStopSec (20 s, deploy/systemd/hyakunin-daphne@.service) per restart. Seen from
faulthandler on 2 Dec: the main thread in `concurrent.futures.thread._python_exit`, one
worker in `asgiref.current_thread_executor.run_until_future` under whitenoise's middleware.

After Twisted's shutdown, daphne has cancelled its applications and awaited them, and a
cancelled `sync_to_async` call waits for its thread (asgiref): what is still running then
belongs to no application. The threads get STRANDED_GRACE_S; any left (stranded ones, and
executors' idle workers, which the interpreter would only wake to end them) are not waited
for: the process flushes its logs and exits with status 0.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time

STRANDED_GRACE_S = 0.2


def exit_after_daphne() -> None:
    """Arm the exit, when this process runs under daphne (its reactor is installed)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:  # not daphne (a management command, a test importing the app)
        return
    reactor.addSystemEventTrigger("after", "shutdown", leave_unless_threads_finish)


def leave_unless_threads_finish(grace_s: float = STRANDED_GRACE_S) -> None:
    deadline = time.monotonic() + grace_s
    for thread in _others():
        thread.join(max(0.0, deadline - time.monotonic()))
    stranded = [thread for thread in _others() if thread.is_alive()]
    if not stranded:
        return  # nothing left to wait for: the interpreter exits as usual
    logging.getLogger(__name__).info("exiting without joining %d thread(s)", len(stranded))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _others() -> list[threading.Thread]:
    """The threads the interpreter's exit would join."""
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and not t.daemon]
