"""Starting the site as the README says: beat on a fresh checkout, the key rule, and
./dev.py run stopping everything on SIGTERM (issue 15, items 1, 3, 4)."""

from __future__ import annotations

import os
import shelve
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.platform.services import need_services
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHONPATH = os.pathsep.join([str(ROOT / "platform"), str(ROOT)])


def _env(**extra: str) -> dict[str, str]:
    dropped = ("DEBUG", "HTTPS", "SECRET_KEY", "SECRET_KEY_FILE", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(PYTHONPATH=PYTHONPATH, DJANGO_SETTINGS_MODULE="config.settings", **extra)
    return env


def test_debug_off_without_a_key_refuses_to_start(tmp_path):
    var = tmp_path / "var"
    env = _env(DEBUG="0", VAR_DIR=str(var))
    check = subprocess.run([sys.executable, ROOT / "manage.py", "check"],
                           env=env, capture_output=True, text=True)  # fmt: skip
    assert check.returncode != 0
    assert "SECRET_KEY is required" in check.stderr
    server = subprocess.run([sys.executable, "-c", "import config.asgi"],
                            env=env, capture_output=True, text=True)  # fmt: skip
    assert server.returncode != 0 and "SECRET_KEY is required" in server.stderr
    assert not (var / "secret_key").exists()  # no key made up on this host


def test_a_key_file_is_read_and_debug_needs_none(tmp_path):
    key_file = tmp_path / "key"
    key_file.write_text("from-a-file-" + "z" * 40 + "\n")
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    run = [sys.executable, ROOT / "manage.py", "shell", "--no-imports", "-c", code]
    env = _env(DEBUG="0", VAR_DIR=str(tmp_path), SECRET_KEY_FILE=str(key_file))
    from_file = subprocess.run(run, env=env, capture_output=True, text=True)
    assert from_file.stdout.strip() == "from-a-file-" + "z" * 40, from_file.stderr
    debug = subprocess.run(
        run, env=_env(DEBUG="1", VAR_DIR=str(tmp_path)), capture_output=True, text=True
    )
    assert debug.returncode == 0 and debug.stdout.strip(), debug.stderr


def test_the_server_keeps_what_it_starts_with_out_of_full_collections(tmp_path):
    """config.asgi freezes the objects made at startup (gc.freeze): a full garbage collection
    no longer walks them, which paused the server long enough to refuse honest touches."""
    code = "import gc; import config.asgi; print(gc.get_freeze_count())"
    env = _env(DEBUG="1", VAR_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 20_000  # Django and the apps: ~100,000 objects


# A server's life in miniature: a live set like 800 sockets' (held), and per move a few
# hundred objects that stay alive a while (a snapshot until the match's next move, in cycles
# as coroutines and futures are), then die. Counts the collections of each generation.
_PLAY = """
import collections, gc, sys
import config.asgi
counts = collections.Counter()
gc.callbacks.append(lambda phase, info: phase == "stop" and counts.update([info["generation"]]))
class Node:
    def __init__(self, other=None):
        self.other = other if other is not None else self
live = [[Node() for _ in range(250)] for _ in range(800)]
window = collections.deque(maxlen=200)
for move in range(20_000):
    window.append([Node() for _ in range(30)])
print(counts[0], counts[1], counts[2], len(gc.garbage))
"""


def test_the_server_collects_young_so_play_never_walks_the_whole_live_set(tmp_path):
    """The objects a move keeps for a while (a match's snapshot, a move waiting on its commit)
    used to reach the old generation and trigger a full collection every 10-20 s at 200
    paced matches, each stopping the process 80-240 ms (the paced p99 of 300+ ms). Under
    config.asgi's thresholds they die before they get there: 600,000 such objects over
    200,000 live ones cause no full collection, and their cycles are still collected by
    the young collections, which stay small (karuta's touches are stamped on arrival)."""
    env = _env(DEBUG="1", VAR_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", _PLAY], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    young, _middle, full = (int(n) for n in run.stdout.split()[:3])
    assert full == 0, run.stdout
    assert young >= 5, run.stdout  # the cycles are collected all along, not left to grow


@pytest.mark.services
@pytest.mark.slow
def test_beat_starts_on_a_fresh_checkout_and_schedules_the_purge(tmp_path):
    """Production variables, var/ absent: beat must create its schedule, not crash."""
    database, redis_url = need_services()
    var = tmp_path / "var"  # does not exist, as on a fresh clone
    env = _env(
        DEBUG="0",
        SECRET_KEY="s" * 50,
        VAR_DIR=str(var),
        ALLOWED_HOSTS="example.org",
        DATABASE_URL=database,
        REDIS_URL=redis_url,
    )
    log = tmp_path / "beat.log"
    with log.open("wb") as out:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        # beat logs each due task it sends; the stalled-match sweep is due at once.
        while "Sending due task matches-sweep-stalled" not in log.read_text(errors="replace"):
            assert beat.poll() is None, f"beat exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
    finally:
        beat.terminate()
        beat.wait(timeout=20)
    text = log.read_text(errors="replace")
    assert "FileNotFoundError" not in text and "corrupted" not in text, text
    with shelve.open(str(var / "celerybeat-schedule"), flag="r") as schedule:
        assert "telemetry-purge-expired" in schedule["entries"]


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))


@pytest.mark.slow
@pytest.mark.any_store  # the README's quick start: embedded defaults whatever the environment
def test_sigterm_to_dev_run_stops_daphne_and_celery(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        HOST="127.0.0.1",
        PORT=str(port),
        VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    log = (tmp_path / "run.log").open("wb")
    run = subprocess.Popen(
        [sys.executable, ROOT / "dev.py", "run"],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    children: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            assert run.poll() is None, (tmp_path / "run.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "run.log").read_text()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        children = _children(run.pid)
        assert len(children) == 2  # daphne and the celery worker
        run.send_signal(signal.SIGTERM)  # `kill <pid>`: the process only, not its group
        run.wait(timeout=30)
        assert [pid for pid in children if _alive(pid)] == []
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
    finally:
        for pid in [run.pid, *children]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        log.close()
