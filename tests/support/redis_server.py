"""A Redis server of a test's own, on a free port, that the test may kill and restart.

Never the shared Redis (6379): outage tests kill this one. No persistence, no config file.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path

from tests.support.server import ROOT, free_port


class RedisServer:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = ROOT / "var" / f"redis-{self.port}.log"

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10.0) -> None:
        import redis

        Path(self.log_path).parent.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--logfile", str(self.log_path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not answer")

    def kill(self) -> None:
        """kill -9: every client's connection drops at once."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def pause(self) -> None:
        """SIGSTOP: Redis stops answering but no connection drops or is refused (a hung
        server, a dead link): clients wait unless they time out."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        self.kill()
