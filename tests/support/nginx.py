"""deploy/nginx/hyakunin.conf run on this machine: the same upstreams and locations, with
this run's ports and paths, inside a minimal nginx.conf of its own (no root-owned pid or
log files). Used by tests/platform/test_deploy.py and bench/bench_matches.py ("proxied").
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "hyakunin.conf"
APP_DIR = "/srv/hyakunin"  # where the site expects the checkout


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if Path(p).exists()), None
    )


def local_site(
    folder: Path,
    app_dir: Path,
    http_port: int,
    https_port: int,
    upstreams: list[int],
    cert: Path | None = None,
    key: Path | None = None,
) -> str:
    """The site's text for this run. Every upstream's server lines become `upstreams`
    (the site's upstreams name the same daphne processes). Without a certificate the TLS
    server listens plain HTTP on `https_port` (its `ssl_` lines dropped): the bench's
    variant; the routing is the same."""
    site = SITE.read_text().replace(APP_DIR, str(app_dir))
    if cert is not None and key is not None:
        site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site)
        site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)
    else:
        site = re.sub(r"^\s*ssl_\w+ .*;\n", "", site, flags=re.M)
    tls = "ssl" if cert is not None else ""
    site = re.sub(r"error_log \S+", f"error_log {folder / 'site-error.log'}", site)
    site = re.sub(r"listen (\[::\]:)?80;", lambda m: "" if m.group(1) else
                  f"listen 127.0.0.1:{http_port};", site)  # fmt: skip
    site = re.sub(r"listen (\[::\]:)?443 ssl( http2)?;", lambda m: "" if m.group(1) else
                  f"listen 127.0.0.1:{https_port} {tls}{(m.group(2) or '') if tls else ''};",
                  site)  # fmt: skip
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in upstreams)
    site, count = re.subn(
        r"(upstream \w+ \{\n(?:\s*(?:#.*|hash .*)\n)*)(?:\s*server .*\n)+",
        lambda m: m.group(1) + servers, site,
    )  # fmt: skip
    upstream_blocks = len(re.findall(r"^upstream \w+ \{", site, re.M))
    assert count == upstream_blocks, "an upstream's server lines were not replaced"
    return site.replace("server_name karuta.example.org;", "server_name localhost;")


def write_conf(folder: Path, site: str, *, workers: int = 1, connections: int = 512) -> Path:
    """nginx.conf including `site` (written beside it); nginx -c it -p folder."""
    (folder / "site.conf").write_text(site)
    conf = folder / "nginx.conf"
    # Root starts workers as nobody, who cannot read a private folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(
        f"{user}pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'};\n"
        f"worker_processes {workers};\n"
        f"worker_rlimit_nofile {2 * connections + 64};\n"
        f"events {{ worker_connections {connections}; }}\n"
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        f"    client_body_temp_path {folder / 'body'};\n"
        f"    proxy_temp_path {folder / 'proxy'};\n"
        f"    include {folder / 'site.conf'};\n"
        "}\n"
    )
    return conf
