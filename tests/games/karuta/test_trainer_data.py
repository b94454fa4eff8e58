"""The trainer's embedded data, computed from the kimariji code, and its JavaScript twins.

tests/js/fixtures/trainer-data.json is what the page embeds (games.karuta.trainer_data),
so the Node tests of static/js/trainer run on the real poems; this checks it is current.
Rewrite it after a data change with:
PYTHONPATH=platform:. .venv/bin/python tests/games/karuta/test_trainer_data.py
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "js" / "fixtures" / "trainer-data.json"
NODE = shutil.which("node") or "/usr/bin/node"


def _render() -> str:
    from games.karuta import trainer_data

    data = trainer_data.page_data()
    lines = ",\n".join(
        f"  {json.dumps(key)}: [\n"
        + ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in items)
        + "\n  ]"
        for key, items in data.items()
    )  # one poem or set a line: readable diffs
    return "{\n" + lines + "\n}\n"


def node(script: str, stdin: str = "") -> object:
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_node_fixture_is_current():
    assert FIXTURE.read_text(encoding="utf-8") == _render(), "rewrite the fixture (see docstring)"


def test_js_kimariji_lengths_match_the_server():
    from poems import kimariji

    lengths = node(
        """
        import { readFileSync } from "node:fs";
        import { staticLengths } from "./static/js/trainer/lookalikes.js";
        const data = JSON.parse(readFileSync("tests/js/fixtures/trainer-data.json", "utf8"));
        process.stdout.write(JSON.stringify(Object.fromEntries(staticLengths(data.poems))));
        """
    )
    assert lengths == {str(n): kimariji.static_kimariji(n) for n in range(1, 101)}


def test_js_poem_of_the_day_matches_the_server_for_three_years():
    from poems import daily

    start = dt.date(2026, 1, 1)
    days = [daily.day_number(start + dt.timedelta(days=i)) for i in range(3 * 366)]
    js = node(
        """
        import { readFileSync } from "node:fs";
        import { poemOfDay } from "./static/js/trainer/daily.js";
        const days = JSON.parse(readFileSync(0, "utf8"));
        process.stdout.write(JSON.stringify(days.map(poemOfDay)));
        """,
        json.dumps(days),
    )
    assert js == [daily.poem_of_day(start + dt.timedelta(days=i)) for i in range(3 * 366)]


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
    FIXTURE.write_text(_render(), encoding="utf-8")
