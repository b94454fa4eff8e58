"""The page's buckets (static/js/telemetry.js) are exactly the server's vocabulary.

Node imports the module the pages load and buckets a sweep of raw values; every result
must be a value the intake accepts, and every accepted value must be reachable.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from telemetry import vocabulary as v

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "static" / "js" / "telemetry.js"
NODE = shutil.which("node") or "/usr/bin/node"

RUNNER = """
import { buckets } from "./telemetry.mjs";
const range = (n, step = 1) => Array.from({ length: n }, (_, i) => i * step);
const out = {
  moves: range(500).map(buckets.moves),
  duration: range(200, 60000).map(buckets.duration),
  reconnects: range(30).map(buckets.reconnects),
  renderSpeed: range(130).map(buckets.renderSpeed),
  timeTo3d: range(120, 500).map(buckets.timeTo3d),
  memory: [undefined, 0.25, 0.5, 1, 2, 4, 8, 16].map(buckets.memory),
  cores: [undefined, 0, ...range(70)].map(buckets.cores),
};
process.stdout.write(JSON.stringify(out));
"""


def test_js_buckets_are_the_server_vocabulary(tmp_path):
    (tmp_path / "telemetry.mjs").write_text(MODULE.read_text())
    (tmp_path / "run.mjs").write_text(RUNNER)
    result = subprocess.run([NODE, "run.mjs"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=30, check=True)  # fmt: skip
    made = json.loads(result.stdout)
    expected = {
        "moves": v.MOVES,
        "duration": v.DURATIONS,
        "reconnects": v.RECONNECTS,
        "renderSpeed": v.RENDER_SPEEDS,
        "timeTo3d": v.TIMES_TO_3D,
        "memory": v.MEMORY,
        "cores": v.CORES,
    }
    for name, allowed in expected.items():
        assert set(made[name]) == set(allowed), name
    assert made["moves"][:2] == ["0", "1-9"] and made["moves"][12] == "10-29"
    assert made["duration"][0] == "lt1m" and made["duration"][3] == "3-10m"  # 3 minutes
    assert made["memory"][0] == "unknown" and made["memory"][4] == "2gb"
