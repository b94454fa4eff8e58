"""asgi_server's server launched ahead (tests/support/server.py ServerAhead): the taking test
gets it only when it was launched with the environment that test would give a new server;
it is a fork of a warm parent (ServerForker), a process of its own like any other."""

from __future__ import annotations

import os
import signal
import urllib.request

import pytest

from tests.support.server import AsgiServer, ForkedProcess, ServerAhead, ServerForker, _same_env


@pytest.fixture
def ahead():
    servers = ServerAhead()
    taken = []
    yield servers, taken
    servers.close()
    for server in taken:
        server.stop()


def test_a_server_launched_ahead_is_taken_when_nothing_changed(ahead):
    servers, taken = ahead
    servers.launch()
    launched = servers.server
    taken.append(servers.take())
    assert taken[0] is launched and servers.server is None


def test_a_server_launched_before_the_environment_changed_is_not_taken(ahead, monkeypatch):
    servers, taken = ahead
    servers.launch()
    launched = servers.server
    monkeypatch.setenv("HYAKUNIN_TEST_SETTING_OF_A_FIXTURE", "on")
    taken.append(servers.take())
    assert taken[0] is not launched
    assert launched.proc.poll() is not None, "the unfit server is stopped"
    assert taken[0].launched_env["HYAKUNIN_TEST_SETTING_OF_A_FIXTURE"] == "on"


def test_a_server_that_exited_is_not_taken(ahead):
    servers, taken = ahead
    servers.launch()
    launched = servers.server
    launched.kill()
    taken.append(servers.take())
    assert taken[0] is not launched and taken[0].proc.poll() is None


def test_the_test_phase_in_the_environment_does_not_count():
    ignored = ServerAhead.IGNORED
    assert _same_env(
        {"A": "1", "PYTEST_CURRENT_TEST": "t (setup)"},
        {"A": "1", "PYTEST_CURRENT_TEST": "u"},
        ignored,
    )
    assert not _same_env({"A": "1"}, {"A": "2"}, ignored)


def test_forked_servers_serve_side_by_side_and_stop_like_any_process():
    """Two forks at once each serve (a reactor of their own, not their parent's epoll), are
    this process's children (waited for, exit status 0 on SIGTERM), and a kill -9 ends one
    without the other."""
    forker = ServerForker()
    servers = [AsgiServer(), AsgiServer()]
    try:
        for server in servers:
            server.launch(forker)
            assert isinstance(server.proc, ForkedProcess)
        for server in servers:
            server.wait_until_serving()
            assert urllib.request.urlopen(server.url + "/healthz", timeout=5).status == 200
        servers[0].kill()
        assert servers[0].proc.returncode == -signal.SIGKILL
        assert urllib.request.urlopen(servers[1].url + "/", timeout=5).status == 200
        servers[1].proc.terminate()
        assert servers[1].proc.wait(timeout=10) == 0
    finally:
        for server in servers:
            server.stop()
        forker.stop()


def test_a_server_with_its_own_environment_is_not_forked():
    forker = ServerForker()
    plain, own = AsgiServer(), AsgiServer(extra_env={"MATCHES_DISCONNECT_GRACE_S": "2"})
    try:
        plain.launch(forker)
        own.launch(forker)
        assert isinstance(plain.proc, ForkedProcess)
        assert not isinstance(own.proc, ForkedProcess)
        own.wait_until_serving()
    finally:
        plain.stop()
        own.stop()
        forker.stop()


@pytest.mark.django_db
def test_the_warm_parent_keeps_no_thread_or_socket_its_forks_would_share():
    """A fork has only the thread that forked: a connection pool's threads (PostgreSQL,
    config/settings.py) would be missing from every server while the pool's sockets were
    shared by all of them, each server's queries interleaved with another's."""
    forker = ServerForker()
    server = AsgiServer()
    try:
        server.launch(forker)
        assert isinstance(server.proc, ForkedProcess), "the warm parent did not start"
        server.wait_until_serving()
        parent = forker.parent.pid
        assert os.listdir(f"/proc/{parent}/task") == [str(parent)]
        fds = [os.readlink(f"/proc/{parent}/fd/{fd}") for fd in os.listdir(f"/proc/{parent}/fd")]
        assert not [fd for fd in fds if fd.startswith("socket:")]
    finally:
        server.stop()
        forker.stop()
