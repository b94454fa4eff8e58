"""The Celery worker survives its Redis going away while it holds an ETA task.

celery 5.7.0 exited there ("Unrecoverable error: AttributeError('NoneType' object has no
attribute 'hostname')"): after a connection loss it collected the broker connection (the
transport forgets its client) and then closed it, and closing the channel restores the
held ETA messages through that forgotten client. celery < 5.7 (pyproject.toml) does not
close the collected connection. This test starts its own Redis and worker, kills Redis
while the worker holds an ETA task, restarts it, and needs the worker to run a new task.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from celery import Celery

from matches import services
from matches.models import Match
from tests.matches.helpers import create
from tests.support.redis_server import RedisServer
from tests.support.server import ROOT, database_url

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
def own_redis():
    if not RedisServer.available():
        pytest.fail("redis-server is not installed (the services pass needs it)")
    server = RedisServer()
    server.start()
    yield server
    server.stop()


def test_the_worker_reconnects_after_redis_drops_while_it_holds_an_eta_task(own_redis, settings):
    settings.MATCHES_CPU_DELAY_MS = 0
    log_path = ROOT / "var" / f"worker-{own_redis.port}.log"
    env = dict(os.environ)
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="config.settings_test",
        DATABASE_URL=database_url(),
        REDIS_URL=own_redis.url(),
        HTTPS="0",
    )
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
             "--without-mingle", "--without-gossip", "-l", "info"],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    # Not set as current: broadcast sends through celery.current_app, which must stay the project's.
    sender = Celery(broker=own_redis.url(), set_as_current=False)
    try:
        text = lambda: log_path.read_text(errors="replace")  # noqa: E731
        wait_for(lambda: " ready." in text(), 40, "the worker to start")
        # An ETA task the worker receives and holds (unacknowledged) until its time.
        later = datetime.now(UTC) + timedelta(minutes=5)
        sender.send_task("matches.tasks.advance_match", ("0" * 32, 1), eta=later)
        wait_for(lambda: "received" in text(), 20, "the worker to take the ETA task")

        own_redis.kill()
        wait_for(lambda: "Connection to broker lost" in text(), 20, "the worker to notice")
        own_redis.start()
        wait_for(lambda: text().count("Connected to redis") >= 2, 40, "the worker to reconnect")
        assert worker.poll() is None, text()[-3000:]

        # A CPU move, queued after the outage, is played by the reconnected worker.
        match, _token = create(mode="cpu")
        applied = services.submit_action(match.id, [0], {"type": "draw"})
        sender.send_task("matches.tasks.advance_match", (str(match.id), applied.seq), countdown=0.5)
        wait_for(lambda: Match.objects.get(pk=match.id).seq > applied.seq, 30, "the CPU move")
        assert worker.poll() is None
        assert "Unrecoverable error" not in text()
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        sender.close()
