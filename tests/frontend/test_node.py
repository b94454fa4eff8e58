"""The front end's pure modules, tested with Node's own runner (`node --test`).

Each tests/js/*.test.mjs file is one pytest case, so the README's test command runs them
and a failure shows Node's report. Node is required (CI fails without it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_node_suite(path: Path):
    node = shutil.which("node")
    assert node, "Node.js is needed for the front-end tests (apt-get install nodejs)"
    done = subprocess.run(
        [node, "--test", "--test-reporter=spec", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    counts = dict(re.findall(r"^ℹ (\w+) (\d+)$", done.stdout, re.MULTILINE))
    assert int(counts["pass"]) > 0 and counts["fail"] == counts["skipped"] == "0", done.stdout
