#!/usr/bin/env python3
"""Set up and run the site or the tests. Needs only Python 3.11+ and PyPI.

./dev.py run     set up (.venv, install, migrate) and serve on embedded defaults
./dev.py test    set up and run the whole test suite in parallel (extra args go to pytest)
./dev.py lock    refresh requirements.lock from pyproject.toml's ranges
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
PY = BIN / "python"
LOCK = ROOT / "requirements.lock"
STAMP = VENV / ".installed-lock"


def say(message: str) -> None:
    print(f"[dev] {message}", flush=True)


def local_secret_key_file() -> Path:
    """This checkout's own key for local runs, made once in var/ (production sets SECRET_KEY)."""
    path = ROOT / "var" / "secret_key"
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path


def project_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "platform"), str(ROOT)])
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.update(extra)
    return env


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py may be run by an older python3)
        sys.exit("Python 3.11 or newer is needed.")
    if not PY.exists():
        say(f"creating {VENV.relative_to(ROOT)}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = LOCK.read_text()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        say("installing dependencies from requirements.lock")
        install(LOCK)
        STAMP.write_text(wanted)


# uv installs the lock with parallel downloads and unpacking, and compiles its bytecode on
# every core: 11 s on a fresh machine here (uv itself included) against pip's 31 s, 6 Dec.
UV = "uv==0.13.9"


def install(requirements: Path) -> None:
    """Install a lock file into .venv with uv, or with pip where uv cannot (uv does not read
    pip's configuration: an index set only there, say)."""
    uv = [BIN / "uv", "pip", "install", "-q", "--compile-bytecode", "--python", PY]
    if pip_install(UV) == 0:  # the pinned uv, also where .venv has an older one
        if subprocess.run([*uv, "-r", requirements]).returncode == 0:
            return
        say("uv could not install it: pip will")
    if pip_install("-r", str(requirements)) != 0:
        sys.exit(f"could not install {requirements.name}")


def pip_install(*args: str) -> int:
    return subprocess.run([PY, "-m", "pip", "install", "-q", *args]).returncode


def manage(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([PY, ROOT / "manage.py", *args], check=True, env=env or project_env())


def cmd_run(argv: list[str]) -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    ensure_venv()
    # A local run speaks plain HTTP; production sets HTTPS itself (README).
    env = project_env(HTTPS=os.environ.get("HTTPS", "0"))
    env.setdefault("LOG_FORMAT", "plain")  # text for people; production logs JSON lines
    if not env.get("SECRET_KEY"):
        env.setdefault("SECRET_KEY_FILE", str(local_secret_key_file()))
    manage("migrate", "--noinput", env=env)
    manage("collectstatic", "--noinput", "-v", "0", env=env)
    # `kill <pid>` (SIGTERM) and a closed terminal (SIGHUP) stop everything, as Ctrl-C does:
    # turn them into the same KeyboardInterrupt so the children never outlive this process.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)
    procs: list[subprocess.Popen] = []
    try:
        procs.append(
            # --access-log /dev/null: daphne's access log would record client addresses.
            subprocess.Popen(
                [BIN / "daphne", "--access-log", os.devnull, "-b", host, "-p", port,
                 "config.asgi:application"],
                env=env, cwd=ROOT,
            )
        )  # fmt: skip
        procs.append(
            # One worker with an embedded beat: exactly one scheduler on a single machine.
            subprocess.Popen(
                [BIN / "celery", "-A", "config", "worker", "--beat", "--loglevel", "INFO",
                 "--concurrency", "2"],
                env=env, cwd=ROOT,
            )
        )  # fmt: skip
        say(f"site running at http://{host}:{port}/  (Ctrl-C stops everything)")
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
        say("a process stopped; stopping the rest")
    except KeyboardInterrupt:
        say("stopping")
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second TERM must not cut this short
        stop_all(procs)
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def stop_all(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def npm_tools_missing() -> bool:
    """No node_modules, or one that lacks a dev dependency added since (npm ci then)."""
    manifest = ROOT / "package.json"
    if not manifest.exists():
        return False
    wanted = json.loads(manifest.read_text(encoding="utf-8")).get("devDependencies", {})
    return any(not (ROOT / "node_modules" / name / "package.json").exists() for name in wanted)


def cmd_test(argv: list[str]) -> int:
    ensure_venv()
    if npm_tools_missing() and shutil.which("npm"):
        say("installing front-end test tools (npm ci)")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], check=True, cwd=ROOT)
    env = project_env()
    # Bytecode is written even where the environment says not to: a run starts about a
    # hundred servers and a pytest process per worker, and each would otherwise compile the
    # project (and rewrite every test module's asserts) from source, 6.6 s against 3.5 s of
    # CPU per process for collection alone.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pytest = [PY, "-m", "pytest"]
    parallel = in_parallel(argv)
    if parallel == argv:
        return subprocess.run([*pytest, *argv], env=env, cwd=ROOT).returncode
    # Three passes: everything else in parallel; the `timing` tests (tests/conftest.py) on
    # at most TIMING_WORKERS, so that no test that measures milliseconds shares the two cores
    # with more than two others (beside them, at idle priority, the tests that only compute:
    # IdlePass); then the `timing_alone` ones in one process.
    rest, selected = split_mark_expression(argv)
    codes = []
    named = any(not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists() for arg in rest)
    modules, idle_paths = pass_modules()
    # Unless tests were named: a timing pass collects only its own modules, and the tests
    # that only compute run beside the first timing pass rather than in the parallel one.
    idle_paths = [] if named else idle_paths
    for index, ((number, mark), paths) in enumerate(
        zip(timing_passes(parallel[1]), modules, strict=True)
    ):
        expression = f"({selected}) and {mark}" if selected else mark
        workers = ["-n", number] if number else []
        paths = [] if named else paths
        ignored = [f"--ignore={path}" for path in idle_paths] if index == 0 else []
        beside = None
        if index == 1 and idle_paths:
            idle = f"({selected}) and not timing" if selected else "not timing"
            beside = IdlePass(pytest, [*rest, "-m", idle], idle_paths, env, int(number or 1))
        say(f"pytest -m '{expression}'" + (f" on {number} workers" if number else " alone"))
        run = subprocess.run(
            [*pytest, *workers, *rest, *ignored, "-m", expression, *paths], env=env, cwd=ROOT
        )
        codes.append(run.returncode)
        if beside is not None:
            codes.append(beside.finish())
    failed = [code for code in codes if code not in (0, NO_TESTS_COLLECTED)]
    if failed:
        return failed[0]
    return NO_TESTS_COLLECTED if all(code == NO_TESTS_COLLECTED for code in codes) else 0


NO_TESTS_COLLECTED = 5  # pytest's exit code when a selection is empty
# Three timing tests at once, never more: they mostly wait on readings and links (23% of
# two cores busy with two at once, 5 Dec), and the three longest then start together.
TIMING_WORKERS = 3


def timing_passes(workers: str) -> list[tuple[str | None, str]]:
    """(workers or None for one process, mark expression) of each pass, in order."""
    timing = str(min(TIMING_WORKERS, int(workers)))
    return [
        (workers, "not timing"),
        (timing if timing != "1" else None, "timing and not timing_alone"),
        (None, "timing_alone"),
    ]


def pass_modules() -> tuple[list[list[str]], list[str]]:
    """The modules each pass of timing_passes() needs ([] for the first: the whole tree), and
    the paths of the idle pass."""
    import runpy

    names = runpy.run_path(str(ROOT / "tests" / "timing_modules.py"))
    timing, alone = names["TIMING_MODULES"], names["TIMING_ALONE_MODULES"]
    return [[], sorted(timing - alone), sorted(alone)], list(names["IDLE_PASS_PATHS"])


class IdlePass:
    """The tests that only compute (IDLE_PASS_PATHS in tests/timing_modules.py), run beside
    the timing pass at idle priority: Linux gives a SCHED_IDLE process a core only when no
    other process wants it, so the timing tests keep theirs, and this pass takes what they
    leave (about three quarters of two cores). A worker per core; their var/ folders, test
    databases and Redis databases are apart from the timing pass's, and their output is
    printed once they end, after the timing pass's."""

    def __init__(self, pytest: list, args: list[str], paths: list[str], env: dict[str, str],
                 beside_workers: int) -> None:  # fmt: skip
        workers = str(os.cpu_count() or 1)
        env = dict(env)
        var = Path(env.get("VAR_DIR") or ROOT / "var") / "idle-pass"
        var.mkdir(parents=True, exist_ok=True)
        env["VAR_DIR"] = str(var)
        if url := env.get("REDIS_URL"):  # after the timing pass's: base + its workers
            env["REDIS_URL"] = url_path(url, lambda db: str(int(db or 0) + beside_workers))
        if (url := env.get("DATABASE_URL", "")).startswith("postgres"):  # test_<name>_idle_gwN
            env["DATABASE_URL"] = url_path(url, lambda name: f"{name}_idle")
        self.log = var / "pytest.log"
        say(f"{' '.join(paths)} on {workers} workers at idle priority, beside the next pass")
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [*pytest, "-n", workers, *args, *paths], env=env, cwd=ROOT,
                stdout=out, stderr=subprocess.STDOUT, preexec_fn=idle_priority,
            )  # fmt: skip

    def finish(self) -> int:
        # The pass beside it has ended, and nothing else of this run's is left to protect:
        # the rest of this pass runs at normal priority. At idle priority it would get no
        # core while anything else on the machine wants one (CI's PostgreSQL + Redis pass,
        # whose timing pass selects nothing: 71 tests in 33 s in CI, 260 s on a machine
        # shared at load 8-14, 6 Dec).
        normal_priority(self.proc.pid)
        code = self.proc.wait()
        say(f"the idle pass ({self.log}):")
        sys.stdout.write(self.log.read_text(errors="replace"))
        sys.stdout.flush()
        return code


def idle_priority() -> None:
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux: the lowest niceness instead
        os.nice(19)


def normal_priority(root: int) -> None:
    """Every thread of `root` and its descendants back to the normal policy (SCHED_OTHER, at
    the niceness each had). A thread's policy is its own (Linux): each is set; a process or
    thread started later inherits the policy of the thread that starts it."""
    for pid in _process_tree(root):
        for tid in _listdir(f"/proc/{pid}/task"):
            # Gone meanwhile, or not Linux (then the pass ran at niceness 19: left so).
            with contextlib.suppress(AttributeError, OSError):
                os.sched_setscheduler(int(tid), os.SCHED_OTHER, os.sched_param(0))


def _process_tree(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for name in _listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold spaces or ")"
        parents.setdefault(ppid, []).append(int(name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(parents.get(pid, []))
    return tree


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def url_path(url: str, change) -> str:
    """The URL with its path's last part (a database name or number) changed."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + change(parts.path.strip("/"))))


def split_mark_expression(argv: list[str]) -> tuple[list[str], str | None]:
    """(argv without its -m, the -m expression or None); the last -m wins, as in pytest."""
    rest: list[str] = []
    expression = None
    args = iter(argv)
    for arg in args:
        if arg == "-m":
            expression = next(args, "")
        elif arg.startswith("-m") and arg[2:3] not in ("", "-"):
            expression = arg[2:].removeprefix("=")
        else:
            rest.append(arg)
    return rest, expression


def in_parallel(argv: list[str]) -> list[str]:
    """pytest-xdist workers, TEST_WORKERS of them (default: twice the cores, since most of the
    slow tests wait on a browser, a server or a reading clock). Each has its own database,
    var/ folder and Redis database (config/settings_test.py). Arguments that choose the
    workers or need one process (-n, -p no:xdist, --pdb) are left alone; TEST_WORKERS=0 runs
    in this process."""
    own_choice = ("-n", "--numprocesses", "--dist", "--pdb", "--trace")
    for arg in argv:
        if arg.split("=")[0] in own_choice or (arg[:2] == "-n" and arg[2:3].isalnum()):
            return argv
        if "no:xdist" in arg:
            return argv
    workers = os.environ.get("TEST_WORKERS") or str(2 * (os.cpu_count() or 1))
    if workers == "0":
        return argv
    return ["-n", workers, *argv]


def cmd_lock(argv: list[str]) -> int:
    """Resolve pyproject's ranges in a scratch venv and pin the result."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    scratch = ROOT / "var" / "lock-venv"
    shutil.rmtree(scratch, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(scratch)
    pip = [scratch / "bin" / "python", "-m", "pip"]
    subprocess.run([*pip, "install", "-q", *requirements], check=True)
    frozen = subprocess.run([*pip, "freeze"], check=True, capture_output=True, text=True).stdout
    LOCK.write_text("# Generated by ./dev.py lock from pyproject.toml. Do not edit.\n" + frozen)
    shutil.rmtree(scratch)
    say(f"wrote {LOCK.name}")
    return 0


COMMANDS = {"run": cmd_run, "test": cmd_test, "lock": cmd_lock}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
