"""The play screen's pure modules (static/js/bakudan/{danger,notes,actions,seats,outcome}.js)
under `node --test`: the tests in tests/games/bakudan/js/ import the very files the page loads.

Node treats a .js file as CommonJS unless a package.json says "module", and the site's static
files carry none; so the modules and the tests are copied into a scratch tree that does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MODULES = ROOT / "static" / "js" / "bakudan"
TESTS = Path(__file__).resolve().parent / "js"
NODE = shutil.which("node") or "/usr/bin/node"


def test_pure_modules_pass_node_test(tmp_path):
    assert Path(NODE).exists(), "Node.js is needed to test the play screen's modules"
    # Same relative layout as the repository, so the tests' imports resolve unchanged.
    static = tmp_path / "static" / "js"
    shutil.copytree(MODULES, static / "bakudan")
    shutil.copy(ROOT / "static" / "js" / "text.js", static / "text.js")
    (tmp_path / "static" / "package.json").write_text('{"type": "module"}\n')
    tests = tmp_path / "tests" / "games" / "bakudan" / "js"
    shutil.copytree(TESTS, tests)
    files = sorted(str(p.relative_to(tmp_path)) for p in tests.glob("*.test.mjs"))
    assert len(files) >= 4
    done = subprocess.run(
        [NODE, "--test", *files], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass " in done.stdout, done.stdout
