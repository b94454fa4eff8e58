"""asgi_server's server launched ahead (tests/support/server.py ServerAhead): the taking test
gets it only when it was launched with the environment that test would give a new server."""

from __future__ import annotations

import pytest

from tests.support.server import ServerAhead


@pytest.fixture
def ahead():
    servers = ServerAhead()
    taken = []
    yield servers, taken
    servers.discard()
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
    assert ServerAhead._same(
        {"A": "1", "PYTEST_CURRENT_TEST": "t (setup)"}, {"A": "1", "PYTEST_CURRENT_TEST": "u"}
    )
    assert not ServerAhead._same({"A": "1"}, {"A": "2"})
