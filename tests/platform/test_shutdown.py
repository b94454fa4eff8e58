"""A daphne process leaves once its reactor has shut down, even when a thread is stranded
(platform/config/shutdown.py): a request cut off by SIGTERM held every test server's exit
for 10 s, until it was killed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = """
import sys, threading
from twisted.internet import asyncioreactor
asyncioreactor.install()
from twisted.internet import reactor
from config.shutdown import exit_after_daphne

if sys.argv[1] == "stranded":  # waits on a loop that will never run again
    threading.Thread(target=threading.Event().wait, name="stranded").start()
exit_after_daphne()
reactor.callLater(0.05, reactor.stop)
reactor.run()
sys.exit(3)  # reached only when no thread was left: the usual exit goes on
"""


def run(case: str) -> tuple[int, float, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", SERVER, case], env=env, capture_output=True, text=True, timeout=30
    )
    return done.returncode, time.monotonic() - started, done.stderr


def test_a_stranded_thread_does_not_hold_the_exit():
    code, took, stderr = run("stranded")
    assert code == 0, stderr
    assert took < 5  # the stranded thread never ends: without the exit, the timeout fires


def test_without_stranded_threads_the_usual_exit_goes_on():
    code, _took, stderr = run("clean")
    assert code == 3, stderr


def test_importing_the_app_outside_daphne_arms_nothing():
    code = "import sys; from config.shutdown import exit_after_daphne; exit_after_daphne(); "
    code += "assert 'twisted.internet.reactor' not in sys.modules"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
