"""CI's PostgreSQL + Redis pass leaves out `timing and database_free` (.ci/run): only tests
that cannot reach a database or Redis may carry that mark, or CI would run them on the
embedded setup alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def collected(expression: str, *paths: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-m", expression, *paths],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: nothing selected
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_only_tests_without_database_or_services_are_marked_database_free():
    free = collected(
        "database_free",
        "tests/fairness/test_delay_proxy.py",
        "tests/fairness/test_fairness.py",
        "tests/matches/test_recovery.py",  # a database and servers
        "tests/matches/test_notice_layer.py",  # services: Redis, without a database
    )
    modules = {nodeid.split("::")[0] for nodeid in free}
    assert modules == {"tests/fairness/test_delay_proxy.py", "tests/fairness/test_fairness.py"}
    assert {nodeid for nodeid in free if nodeid.startswith("tests/fairness/test_fairness")} == {
        "tests/fairness/test_fairness.py::"
        "test_refusals_are_counted_by_reason_and_a_losers_late_touch_apart"
    }  # the races play on the database
