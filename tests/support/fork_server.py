"""A warm parent for the test servers: Django, the apps and everything daphne needs, imported
once per test worker; each test's daphne is a fork of it (tests/support/server.py, ServerForker).

A daphne started from scratch spent about 0.8 s of CPU importing before it served its first
page, and a parallel test pass starts about a hundred of them. A fork starts with all of that
done; it is still a process of its own for one test, started from the same state each time.

Twisted's reactor must not exist before the fork: `daphne.server` installs it at import, on
an event loop (an epoll instance) that every fork would share. So this parent imports the
app with a placeholder in its place (`daphne.apps` imports it only to install the reactor
early), and each child imports the real one, which installs a reactor of its own, before
daphne's command line runs.

Protocol, one JSON line each way per server: {"port": N, "log": path} in; the server's pid
out, once the server's own parent has exited: the server is a grandchild, re-parented then
to the process that asked (a child subreaper), which waits for it as for any child. The
parent exits when its stdin closes.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import threading
import types

PLACEHOLDER = "daphne.server"


def prepare() -> None:
    """Import what a server needs, without installing a reactor."""
    sys.modules[PLACEHOLDER] = types.ModuleType(PLACEHOLDER)
    import daphne.http_protocol
    import daphne.ws_protocol  # noqa: F401
    import twisted.internet.asyncioreactor
    import twisted.internet.endpoints
    import twisted.logger  # noqa: F401

    import config.asgi  # noqa: F401  (Django, the apps, the routing)

    assert "twisted.internet.reactor" not in sys.modules, "a reactor before the fork"
    _warm()


WARM_PAGES = ("/", "/en/", "/zh-hans/", "/karuta/", "/bozu/", "/bakudan/")


def _warm() -> None:
    """Serve a few pages once, so that what every server's first pages would do (resolve the
    URLs, load the three languages' catalogues, compile the base templates) is done here.
    No database connection, pool or thread outlives this: a fork gets only the thread that
    forked, so a pool's threads would be missing from every child while its connections (one
    socket each) would be shared by all of them."""
    from django.db import connections
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
    logging.disable(logging.CRITICAL)  # a page that fails here is only a page not warmed
    try:
        for page in WARM_PAGES:
            client.get(page)
    finally:
        logging.disable(logging.NOTSET)
        connections.close_all()
        for connection in connections.all(initialized_only=True):
            if hasattr(connection, "close_pool"):  # PostgreSQL with a pool (config/settings.py)
                connection.close_pool()
    threads = threading.enumerate()
    assert threads == [threading.main_thread()], f"threads before the fork: {threads}"


def serve(port: int, log_path: str) -> None:
    """In the forked server: its own output, its own reactor, then daphne as from the shell."""
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(null)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)
    del sys.modules[PLACEHOLDER]
    import daphne.server  # noqa: F401  (installs this process's reactor)
    from daphne.cli import CommandLineInterface

    from config.shutdown import exit_after_daphne

    exit_after_daphne()  # armed now that the reactor exists (config/asgi.py)
    code = 0
    try:
        CommandLineInterface().run(
            ["--access-log", os.devnull, "-b", "127.0.0.1", "-p", str(port),
             "config.asgi:application"]
        )  # fmt: skip
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        logging.getLogger(__name__).exception("the forked server failed")
        code = 1
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main() -> None:
    prepare()
    out = sys.stdout.fileno()
    os.write(out, b"ready\n")
    for line in sys.stdin:
        request = json.loads(line)
        read_end, write_end = os.pipe()
        middle = os.fork()
        if middle == 0:
            os.close(read_end)
            server = os.fork()
            if server == 0:
                os.close(write_end)
                try:
                    serve(request["port"], request["log"])
                finally:
                    os._exit(1)  # never back into this loop
            os.write(write_end, f"{server}\n".encode())
            os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end) as pipe:
            server = pipe.readline().strip()
        # Told only once the middle process has gone: by then the server is re-parented.
        os.waitpid(middle, 0)
        os.write(out, f"{server}\n".encode())


if __name__ == "__main__":
    main()
