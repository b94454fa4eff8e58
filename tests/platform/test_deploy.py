"""deploy/: the units and the nginx site are valid, and the README's production sequence
works from a fresh copy of the repository on PostgreSQL + Redis with DEBUG=0 (issue 15).

The sequence test runs the README's first block of commands as written (only the path
of the environment file differs), then what the second block starts: each systemd
unit's ExecStart with its EnvironmentFile, and nginx with deploy/nginx/hyakunin.conf,
on free ports with a certificate made for the test. Over that proxy it checks the home
page, /healthz, a static file, that beat scheduled the purge, and a whole Bozu match
against the CPU over a WebSocket (the CPU's moves go through the Celery worker).
"""

from __future__ import annotations

import asyncio
import configparser
import json
import os
import re
import secrets
import shelve
import shlex
import shutil
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.platform.services import need_services
from tests.support.nginx import local_site, write_conf
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))
SITE = DEPLOY / "nginx" / "hyakunin.conf"
APP_DIR = "/srv/hyakunin"  # where the units and the site expect the checkout
ENV_FILE = "/etc/hyakunin/env"


def _tool(name: str) -> str:
    path = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if Path(p).exists()), None
    )
    if path is None:
        reason = f"{name} is not installed (.ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive in systemd
    parser.read_string(path.read_text())
    return parser


# --- the files themselves ---------------------------------------------------------


def test_units_restart_always_and_there_is_exactly_one_beat():
    names = [u.name for u in UNITS]
    assert names == ["hyakunin-beat.service", "hyakunin-celery.service", "hyakunin-daphne@.service"]
    for path in UNITS:
        unit = _unit(path)
        assert unit["Service"]["Restart"] == "always", path.name
        assert unit["Service"]["EnvironmentFile"] == ENV_FILE
        assert unit["Service"]["User"] == "hyakunin"
    starts = {u.name: _unit(u)["Service"]["ExecStart"] for u in UNITS}
    assert [n for n, cmd in starts.items() if re.search(r"\bbeat\b", cmd)] == [
        "hyakunin-beat.service"
    ]
    assert "--beat" not in starts["hyakunin-celery.service"]  # no second scheduler
    daphne = starts["hyakunin-daphne@.service"]
    assert "-p %i" in daphne and "-b 127.0.0.1" in daphne
    assert "--access-log /dev/null" in daphne  # an access log would record addresses
    assert "--proxy-headers" not in daphne  # it trusts the forgeable end of the header


def test_the_nginx_site_has_tls_websockets_static_and_forwarded_headers():
    site = SITE.read_text()
    assert re.search(r"listen 443 ssl", site) and "ssl_certificate " in site
    assert "proxy_set_header Upgrade $http_upgrade;" in site
    assert re.search(r"proxy_set_header Connection \$\w+;", site)
    assert "proxy_http_version 1.1;" in site
    assert f"alias {APP_DIR}/staticfiles/;" in site
    for header in ("X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"):
        assert f"proxy_set_header {header} " in site
    assert "access_log off;" in site
    assert "return 301 https://" in site


def test_daphne_may_hold_thousands_of_sockets_and_nginx_caps_them_per_client():
    """Issue 25: systemd's default 1,024 descriptors let one client shut everyone out."""
    daphne = _unit(DEPLOY / "systemd" / "hyakunin-daphne@.service")["Service"]
    assert int(daphne["LimitNOFILE"]) >= 10_000
    site = SITE.read_text()
    zone = re.search(r"^limit_conn_zone \$binary_remote_addr zone=(\w+):\d+m;$", site, re.M)
    assert zone, "no per-address connection zone"
    tls_server = site[site.index("listen 443") :]
    cap = re.search(rf"^\s+limit_conn {zone.group(1)} (\d+);", tls_server, re.M)
    assert cap and 1 <= int(cap.group(1)) <= 256
    # /healthz is for local callers only (it is slow and logs while a service is down).
    health = re.search(r"location = /healthz \{(.*?)\}", site, re.S).group(1)
    assert "allow 127.0.0.1;" in health and "deny all;" in health


def test_the_environment_template_names_every_setting_the_units_need():
    keys = dict(
        line.split("=", 1)
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    for key in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL",
                "TRUSTED_PROXIES", "PYTHONPATH", "DJANGO_SETTINGS_MODULE", "VAR_DIR"):  # fmt: skip
        assert key in keys, key
    assert keys["DEBUG"] == "0" and keys["TRUSTED_PROXIES"] == "1"
    assert keys["PYTHONPATH"] == f"{APP_DIR}/platform:{APP_DIR}"


def _units_here(folder: Path, app_dir: Path, env_file: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in UNITS:
        text = path.read_text().replace(APP_DIR, str(app_dir)).replace(ENV_FILE, str(env_file))
        target = folder / path.name
        target.write_text(text)
        written.append(target)
    return written


def test_systemd_analyze_verify_accepts_the_units(tmp_path):
    """The units as installed: the same text, pointing at this checkout's venv."""
    tool = _tool("systemd-analyze")
    assert (ROOT / ".venv" / "bin" / "daphne").exists()
    env_file = tmp_path / "env"
    shutil.copy(DEPLOY / "env.example", env_file)
    units = _units_here(tmp_path / "units", ROOT, env_file)
    template = tmp_path / "units" / "hyakunin-daphne@.service"
    instance = tmp_path / "units" / "hyakunin-daphne@8001.service"
    instance.symlink_to(template.name)  # verify needs an instance of a template
    files = [str(u) for u in units if u != template] + [str(instance)]
    result = subprocess.run([tool, "verify", *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr  # not even a warning
    # And it does fail on a broken unit (the check can fail).
    broken = tmp_path / "units" / "broken.service"
    broken.write_text(units[0].read_text().replace(str(ROOT / ".venv"), "/nonexistent"))
    assert subprocess.run([tool, "verify", str(broken)], capture_output=True).returncode != 0


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _nginx_here(folder: Path, app_dir: Path, http_port: int, https_port: int,
                upstreams: list[int]) -> Path:  # fmt: skip
    """deploy/nginx/hyakunin.conf with this run's ports, certificate and paths, inside a
    minimal nginx.conf of its own (tests/support/nginx.py)."""
    cert, key = _certificate(folder)
    site = local_site(folder, app_dir, http_port, https_port, upstreams, cert, key)
    return write_conf(folder, site)


def test_nginx_accepts_the_site(tmp_path):
    nginx = _tool("nginx")
    conf = _nginx_here(tmp_path, ROOT, free_port(), free_port(), [free_port(), free_port()])
    site = (tmp_path / "site.conf").read_text()
    assert "proxy_set_header Upgrade" in site and "ssl_certificate " in site
    result = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path)],
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr
    (tmp_path / "site.conf").write_text(site.replace("proxy_http_version 1.1;", "proxy_http 1;"))
    bad = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path)],
                         capture_output=True, text=True)  # fmt: skip
    assert bad.returncode != 0


class _Backend:
    """A tiny HTTP server standing for one daphne process: it answers every request with
    its name."""

    def __init__(self, name: str):
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()  # its port refuses connections from now on


def test_the_site_sends_every_socket_of_one_match_to_one_process(tmp_path):
    """Issue 40 (docs/matches.md, "One writer per match"): the match sockets' upstream
    hashes the URI consistently, so one match's sockets (and requests) always reach the
    same process, different matches spread over both, and while a process is down its
    matches go to the other; the rest of the site is balanced as before."""
    import random
    import uuid

    nginx = _tool("nginx")
    backends = {name: _Backend(name) for name in ("a", "b")}
    port = free_port()
    site = local_site(tmp_path, ROOT, free_port(), port, [b.port for b in backends.values()])
    conf = write_conf(tmp_path, site)
    proc = subprocess.Popen(
        [nginx, "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip

    def reached(path: str, **headers: str) -> str:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read().decode()

    def answers() -> bool:
        try:
            return reached("/") in backends
        except OSError:
            return False

    try:
        _wait_for(answers, "nginx", 10, [proc])
        rng = random.Random(40)  # the same match ids every run: nginx's hash is deterministic
        matches = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(60)]
        where = {}
        for match in matches:
            path = f"/play/{match}/ws/"
            seen = {reached(path), reached(path + "?since=3"),
                    reached(path, Upgrade="websocket", Connection="Upgrade")}  # fmt: skip
            assert len(seen) == 1, (match, seen)  # a reconnect, another seat: same process
            where[match] = seen.pop()
        shares = {name: list(where.values()).count(name) for name in backends}
        assert min(shares.values()) >= 15, shares  # 60 matches spread over both

        # Everything else as before: round robin over both processes.
        assert {reached(f"/play/{matches[0]}/") for _ in range(4)} == set(backends)
        assert {reached("/lobby/") for _ in range(4)} == set(backends)

        # One process down: its matches go to the other; the other's stay where they were.
        backends["b"].stop()
        for match in matches:
            assert reached(f"/play/{match}/ws/") == "a", (match, where[match])
    finally:
        proc.send_signal(signal.SIGQUIT)
        proc.wait(timeout=10)
        backends["a"].stop()


# --- the README's production sequence, end to end ----------------------------------


def _readme_blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Production", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def test_the_readme_installs_before_it_runs_anything():
    """On a fresh machine `manage.py migrate` needs Django: the venv and the lock first."""
    first = _readme_blocks()[0].splitlines()
    commands = [line for line in first if line.strip() and not line.lstrip().startswith("#")]
    assert commands[0] == "python3 -m venv .venv"
    assert commands[1] == ".venv/bin/pip install -r requirements.lock"
    rest = "\n".join(commands[2:])
    for step in ("manage.py migrate", "manage.py collectstatic", "manage.py check --deploy"):
        assert step in rest, step
    assert all(".venv/bin/" in line for line in commands if "manage.py" in line)


def _fresh_copy(target: Path) -> None:
    """What a clone holds: the tracked files (and new ones not ignored), nothing built."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _environment_file(path: Path, app: Path, values: dict[str, str]) -> dict[str, str]:
    """deploy/env.example with this run's values, written where the units look for it."""
    lines = []
    for line in (DEPLOY / "env.example").read_text().replace(APP_DIR, str(app)).splitlines():
        key = line.split("=", 1)[0]
        lines.append(f"{key}={values[key]}" if key in values and not line.startswith("#")
                     else line)  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return dict(
        line.split("=", 1) for line in path.read_text().splitlines() if line and line[0] != "#"
    )


def _clean_env(**extra: str) -> dict[str, str]:
    """A login shell's environment: none of the test run's Django or service settings."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PIP_CONFIG_FILE", "PIP_INDEX_URL",
            "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT", "SSL_CERT_FILE")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(extra)
    return env


class Units:
    """Runs units the way systemd would: ExecStart, EnvironmentFile, WorkingDirectory."""

    def __init__(self, folder: Path, logs: Path):
        self.folder, self.logs = folder, logs
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, unit_name: str, instance: str = "") -> None:
        unit = _unit(self.folder / unit_name)["Service"]
        env = _clean_env(**_read_env_file(Path(unit["EnvironmentFile"])))
        command = shlex.split(unit["ExecStart"].replace("%i", instance))
        name = unit_name.replace("@.service", f"@{instance}").removesuffix(".service")
        log = (self.logs / f"{name}.log").open("wb")
        self.procs[name] = subprocess.Popen(
            command, cwd=unit["WorkingDirectory"], env=env,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop(self, name: str) -> None:
        proc = self.procs[name]
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # systemd's KillSignal
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.stop(name)


def _read_env_file(path: Path) -> dict[str, str]:
    return dict(
        line.split("=", 1)
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )


def _wait_for(predicate, what: str, timeout: float, procs=()) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        for proc in procs:
            assert proc.poll() is None, f"a process exited while waiting for {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.25)


class Browser:
    """Cookies, CSRF and a Referer, over HTTPS with the test's certificate."""

    def __init__(self, base: str, context: ssl.SSLContext):
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar),
            urllib.request.HTTPSHandler(context=context),
        )

    def get(self, path: str):
        return self.opener.open(self.base + path, timeout=30)

    def post_json(self, path: str, form: dict[str, str]) -> dict:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        request = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(form).encode(),
            headers={"X-CSRFToken": token, "Referer": self.base + "/",
                     "Accept": "application/json"},
        )  # fmt: skip
        with self.opener.open(request, timeout=30) as response:
            return json.loads(response.read())


def _create_database(url: str, name: str, drop_only: bool = False) -> None:
    import psycopg

    admin = urllib.parse.urlsplit(url)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_the_readme_production_sequence_from_a_fresh_copy(tmp_path, monkeypatch):
    from tests.matches.wsbot import Bot, draw_policy

    database, redis_url = need_services()
    nginx = _tool("nginx")
    app = tmp_path / "hyakunin"  # the clone (/srv/hyakunin)
    state = tmp_path / "var-lib-hyakunin"  # StateDirectory=hyakunin, made by systemd
    state.mkdir()
    _fresh_copy(app)
    assert not (app / ".venv").exists() and not (app / "var").exists()

    db_name = urllib.parse.urlsplit(database).path.lstrip("/") + "_prod"
    prod_db = urllib.parse.urlsplit(database)._replace(path=f"/{db_name}").geturl()
    _create_database(database, db_name)
    https_port, http_port = free_port(), free_port()
    daphne_ports = [free_port(), free_port()]
    env_file = tmp_path / "etc-hyakunin-env"
    _environment_file(env_file, app, {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "localhost",
        "CSRF_TRUSTED_ORIGINS": f"https://localhost:{https_port}",
        "DATABASE_URL": prod_db,
        "REDIS_URL": redis_url,
        "VAR_DIR": str(state),
    })  # fmt: skip
    with env_file.open("a") as extra:
        extra.write("MATCHES_CPU_DELAY_MS=50\n")  # a brisk CPU: the match is not the point

    # 1. The README's first block, as written (only the environment file's path differs).
    first, second = _readme_blocks()[:2]
    script = first.replace(ENV_FILE, str(env_file))
    setup = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=app, env=_clean_env(), capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    assert "System check identified no issues" in setup.stdout, setup.stdout[-2000:]

    # 2. What the second block starts: the units (as copied to /etc/systemd/system) ...
    assert "hyakunin-daphne@8001 hyakunin-daphne@8002 hyakunin-celery hyakunin-beat" in second
    units = Units(tmp_path / "units", tmp_path / "logs")
    (tmp_path / "logs").mkdir()
    _units_here(units.folder, app, env_file)
    nginx_proc = None
    try:
        for port in daphne_ports:
            units.start("hyakunin-daphne@.service", str(port))
        units.start("hyakunin-celery.service")
        units.start("hyakunin-beat.service")

        def daphnes_healthy() -> bool:
            for port in daphne_ports:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/healthz", headers={"Host": "localhost"}
                )
                try:
                    urllib.request.urlopen(request, timeout=5).read()
                except OSError:
                    return False
            return True

        _wait_for(daphnes_healthy, "daphne's /healthz", 60, units.procs.values())

        # ... and nginx with the site (the daphne ports in its upstream).
        (tmp_path / "nginx").mkdir()
        conf = _nginx_here(tmp_path / "nginx", app, http_port, https_port, daphne_ports)
        nginx_proc = subprocess.Popen(
            [nginx, "-c", str(conf), "-p", str(tmp_path / "nginx"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        cert = tmp_path / "nginx" / "cert.pem"
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://localhost:{https_port}"
        browser = Browser(base, context)

        def proxy_answers() -> bool:
            try:
                return browser.get("/healthz").status == 200
            except OSError:
                return False

        _wait_for(proxy_answers, "nginx", 30, [nginx_proc])

        # The home page over the proxy path, with the production headers.
        with browser.get("/") as home:
            html = home.read().decode()
            assert home.status == 200 and '<html lang="ja">' in html
            assert "max-age=" in home.headers["Strict-Transport-Security"]
            assert "script-src 'self'" in home.headers["Content-Security-Policy"]
        with browser.get("/healthz") as health:
            assert json.loads(health.read())["status"] == "ok"
        css = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', html).group(1)
        with browser.get(css) as static_file:  # served by nginx from STATIC_ROOT
            assert static_file.status == 200 and static_file.headers["Server"] == "nginx"
        plain = urllib.request.build_opener(_NoRedirect())
        with pytest.raises(urllib.error.HTTPError) as redirect:
            plain.open(f"http://localhost:{http_port}/", timeout=10)
        assert redirect.value.code == 301
        assert redirect.value.headers["Location"] == "https://localhost/"

        # A Bozu match against the CPU, to the end, over a WebSocket through nginx.
        created = browser.post_json("/play/new/bozu/", {
            "players": "2", "semimaru": "monk", "emperor": "noble",
            "play_mode": "cpu", "cpu_level": "beginner",
        })  # fmt: skip
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # websockets' default TLS context
        bot = Bot(f"wss://localhost:{https_port}" + created["ws"], created["token"], draw_policy)

        async def play() -> None:
            await bot.open(since=0, origin=base)  # every event, from the first
            await bot.play(timeout=300)
            await bot.close()

        asyncio.run(play())
        assert bot.room["status"] == "finished"
        assert bot.seen_event_seqs() == list(range(1, bot.seq + 1))

        # Beat runs on Redis and has scheduled the purge (its schedule file, once stopped).
        _wait_for(lambda: "Sending due task matches-sweep-stalled" in units.log("hyakunin-beat"),
                  "beat's first due task", 60, [units.procs["hyakunin-beat"]])  # fmt: skip
        units.stop("hyakunin-beat")
        with shelve.open(str(state / "celerybeat-schedule"), flag="r") as schedule:
            purge = schedule["entries"]["telemetry-purge-expired"]
            assert purge.task == "telemetry.purge_expired"

        # Production logs: JSON lines, no address of anyone (the worker is left out:
        # run as root here, Celery prints a warning about it that a unit never sees).
        for name in [f"hyakunin-daphne@{port}" for port in daphne_ports] + ["hyakunin-beat"]:
            lines = [ln for ln in units.log(name).splitlines() if ln]
            assert lines and all(json.loads(line)["level"] for line in lines), name
            assert "127.0.0.1" not in "\n".join(lines), name
    finally:
        if nginx_proc is not None:
            nginx_proc.send_signal(signal.SIGQUIT)
            nginx_proc.wait(timeout=30)
        units.stop_all()
        _create_database(database, db_name, drop_only=True)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
