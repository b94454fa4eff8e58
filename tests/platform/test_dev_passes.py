"""./dev.py test's passes: everything but the `timing` tests in parallel, the `timing` tests on
three workers with the longest first (beside them, at idle priority, the tests that only
compute), the `timing_alone` ones last in one process (README, "Tests in parallel")."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECOVERY = "tests/matches/test_recovery.py"
FAIRNESS = "tests/fairness/test_fairness.py"
ONLINE = "tests/matches/test_karuta_online.py"
VOICE = "tests/browser/test_karuta_voice.py"
VOICE_FIRST = "tests/browser/test_karuta_voice_first.py"
GENPEI = "tests/matches/test_genpei_online.py"
ALONE = (RECOVERY, VOICE, VOICE_FIRST)
# dev.py's passes and marks, checked by collecting in subprocesses of their own environment:
# nothing here depends on the store, so CI's PostgreSQL + Redis pass leaves them out.
pytestmark = [pytest.mark.any_store]


def load_dev():
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PLUGIN = """
def pytest_collection_finish(session):
    for item in session.items:
        marks = [m for m in ("timing", "timing_alone") if item.get_closest_marker(m)]
        print("ITEM", item.nodeid, *marks)
"""


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> list[tuple[str, set[str]]]:
    """(node id, its timing marks) of five timing modules, in the order pytest runs them."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "print_marks.py").write_text(PLUGIN)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "platform"), str(ROOT), str(folder)])
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q", "-p", "print_marks",
         RECOVERY, FAIRNESS, ONLINE, VOICE, GENPEI],
        env=env, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.split()[1:] for line in done.stdout.splitlines() if line.startswith("ITEM ")]
    return [(node, set(marks)) for node, *marks in lines]


def test_the_timing_tests_run_on_three_workers_and_the_alone_ones_in_one_process():
    dev = load_dev()
    assert dev.timing_passes("4") == [
        ("4", "not timing"),
        ("3", "timing and not timing_alone"),
        (None, "timing_alone"),
    ]
    assert dev.timing_passes("2")[1] == ("2", "timing and not timing_alone")
    # One worker asked for: the timing tests run in one process too.
    assert dev.timing_passes("1")[1] == (None, "timing and not timing_alone")


def test_a_timing_pass_collects_only_its_own_modules():
    dev = load_dev()
    (whole, timing, alone), idle = dev.pass_modules()
    assert whole == [] and alone == sorted(ALONE)
    assert {FAIRNESS, ONLINE, GENPEI} <= set(timing) and not set(ALONE) & set(timing)
    assert all((ROOT / module).is_file() for module in timing)
    assert idle and all((ROOT / path).is_dir() for path in idle)


IDLE_PLUGIN = """
def pytest_collection_finish(session):
    for item in session.items:
        marks = [m.name for m in item.iter_markers()
                 if m.name in ("timing", "browser", "services")]
        compute = item.get_closest_marker("compute_only") is not None
        print("ITEM", ",".join(marks), item.nodeid, compute, sep="\t")
"""


def test_the_idle_pass_holds_no_browser_timing_or_services_test(tmp_path):
    """What runs at idle priority must not need a core on time: no browser, no clock budget,
    no servers of its own."""
    dev = load_dev()
    _modules, idle = dev.pass_modules()
    (tmp_path / "print_idle_marks.py").write_text(IDLE_PLUGIN)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "platform"), str(ROOT), str(tmp_path)])
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q", "-p", "print_idle_marks", *idle],
        env=env, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    items = [line.split("\t")[1:] for line in done.stdout.splitlines() if line[:5] == "ITEM\t"]
    assert len(items) > 500
    assert [(node, marks) for marks, node, _compute in items if marks] == []
    # CI's PostgreSQL + Redis pass leaves out the `compute_only` ones (they ran in its first
    # pass), not those that reach a database.
    compute = {node for _marks, node, flag in items if flag == "True"}
    stores = {node.split("::")[0] for _marks, node, flag in items if flag == "False"}
    assert len(compute) > 500
    assert any(node.startswith("tests/games/karuta/test_judge.py::") for node in compute)
    assert "tests/games/karuta/test_away_rule.py" in stores  # a transactional database test
    assert "tests/games/karuta/test_friend.py" in stores  # a django_db module mark
    second_pass = (ROOT / ".ci" / "run").read_text().split("on PostgreSQL + Redis")[-1]
    expression = (
        "not browser and not voice and not compute_only and not any_store"
        " and (services or not timing)"
    )
    assert f'-m "{expression}"' in second_pass


SHOW = (
    "import os, sys; print(os.sched_getscheduler(0) == os.SCHED_IDLE, sys.argv[1:], "
    "os.environ['VAR_DIR'], os.environ['REDIS_URL'], os.environ['DATABASE_URL'])"
)


def test_the_idle_pass_runs_at_idle_priority_apart_from_the_timing_pass(tmp_path, capsys):
    dev = load_dev()
    env = {
        **os.environ,
        "VAR_DIR": str(tmp_path),
        "REDIS_URL": "redis://127.0.0.1:6379/9",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/hyakunin_ci?sslmode=disable",
    }
    idle = dev.IdlePass([sys.executable, "-c", SHOW], ["-m", "not timing"], ["tests/games"],
                        env, beside_workers=3)  # fmt: skip
    wait_for_output(idle.log)  # printed before finish() sets the pass back to normal
    assert idle.finish() == 0
    out = capsys.readouterr().out
    workers = str(os.cpu_count() or 1)
    assert f"True ['-n', '{workers}', '-m', 'not timing', 'tests/games']" in out
    assert f"{tmp_path / 'idle-pass'} redis://127.0.0.1:6379/12 " in out
    assert "postgres://postgres@127.0.0.1:5432/hyakunin_ci_idle?sslmode=disable" in out


def wait_for_output(log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not (log.exists() and log.read_text().strip()):
        assert time.monotonic() < deadline, f"nothing in {log} within {timeout} s"
        time.sleep(0.05)


# A worker and a process it started: each says whether it runs at idle priority, and again
# once that has changed (each of its threads is set on its own: the thread is checked too).
WORKER = """
import os, subprocess, sys, threading, time
def report(name):
    print(name, os.sched_getscheduler(0) == os.SCHED_IDLE, flush=True)
    deadline = time.monotonic() + 30
    while os.sched_getscheduler(0) == os.SCHED_IDLE and time.monotonic() < deadline:
        time.sleep(0.05)
    print(name, "then", os.sched_getscheduler(0) == os.SCHED_IDLE, flush=True)
if sys.argv[1:2] == ["child"]:
    report("child")
else:
    child = subprocess.Popen([sys.executable, sys.argv[0], "child"])
    thread = threading.Thread(target=lambda: report("thread"))
    thread.start()
    report("worker")
    thread.join()
    child.wait()
"""


def test_the_idle_pass_is_back_at_normal_priority_once_the_pass_beside_it_ends(tmp_path, capsys):
    """At idle priority it would get no core while anything else on the machine wants one;
    once the timing pass has ended there is nothing left of the run's to protect."""
    dev = load_dev()
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    env = {**os.environ, "VAR_DIR": str(tmp_path)}
    idle = dev.IdlePass([sys.executable, str(script)], [], [], env, beside_workers=3)
    deadline = time.monotonic() + 30
    while idle.log.read_text().count(" True") < 3:  # all three report idle priority
        assert time.monotonic() < deadline, idle.log.read_text()
        time.sleep(0.05)
    assert idle.finish() == 0
    out = capsys.readouterr().out
    for name in ("worker", "thread", "child"):
        assert f"{name} True" in out and f"{name} then False" in out, out


def test_recovery_and_voice_run_alone_and_the_other_timing_tests_beside_one_another(collected):
    assert collected
    for node, marks in collected:
        assert "timing" in marks, node
        assert ("timing_alone" in marks) == node.startswith(ALONE), node


def test_the_three_longest_timing_tests_start_the_timing_pass(collected):
    # xdist hands the first three tests to the three workers, one each.
    beside = [node for node, marks in collected if "timing_alone" not in marks]
    assert sorted(beside[:3]) == [
        f"{FAIRNESS}::test_contested_cards_split_fairly_over_unequal_links",
        f"{GENPEI}::test_four_friends_play_two_against_two_and_the_cpu_takes_a_dropped_seat",
        f"{ONLINE}::test_friends_play_competitive_and_chirashi_to_the_end_with_identical_logs",
    ]
    # Behind them the quick ones, queued while the longest run; the slow ones after.
    rest = beside[3:]
    slow = [i for i, node in enumerate(rest) if node.startswith(ONLINE)]
    quick = [i for i, node in enumerate(rest) if node.startswith(FAIRNESS)]
    assert slow and quick and max(quick) < min(slow)
