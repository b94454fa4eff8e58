"""The demo's JavaScript rule agrees with poems.kimariji.dynamic_kimariji.

Node imports the very module the page loads (static/js/kimariji-demo.js) and
computes every poem's kimariji for hundreds of seeded random read-sets; Python
computes the same with the server's function.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from pages import kimariji_list
from poems import catalogue, kimariji

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "static" / "js" / "kimariji-demo.js"
NODE = shutil.which("node") or "/usr/bin/node"

RUNNER = """
import { readFileSync } from "node:fs";
import { dynamicKimariji, splitPrinted } from "./kimariji-demo.mjs";

const input = JSON.parse(readFileSync(0, "utf8"));
const lengths = input.cases.map((read) => {
  const done = new Set(read.map(String));
  const out = {};
  for (const n of Object.keys(input.keys)) out[n] = dynamicKimariji(input.keys, n, done);
  return out;
});
const splits = input.splits.map(([text, n]) => splitPrinted(text, n));
process.stdout.write(JSON.stringify({ lengths, splits }));
"""


def read_sets(seed: int = 20261129) -> list[list[int]]:
    """Uniform random sets of every size, plus sets drawn inside families of look-alikes."""
    rng = random.Random(seed)
    numbers = list(range(1, 101))
    sets: list[list[int]] = [[], numbers[:], [42], [64], [42, 64]]
    for _ in range(300):
        sets.append(rng.sample(numbers, rng.randint(0, 100)))
    families: dict[str, list[int]] = defaultdict(list)
    for p in catalogue.poems():
        families[p.kami_sounds[0]].append(p.number)
    big = [f for f in families.values() if len(f) > 2]
    for _ in range(200):
        family = rng.choice(big)
        sets.append(rng.sample(family, rng.randint(1, len(family) - 1)))
    # Every poem of the あ family but one: あ alone must decide it.
    sets.extend([[n for n in families["あ"] if n != last] for last in families["あ"]])
    return sets


def run_node(payload: dict, tmp_path: Path) -> dict:
    assert Path(NODE).exists(), "Node.js is needed to run the page's module"
    shutil.copy(MODULE, tmp_path / "kimariji-demo.mjs")  # .mjs: an ES module without package.json
    (tmp_path / "runner.mjs").write_text(RUNNER)
    done = subprocess.run(
        [NODE, "runner.mjs"], input=json.dumps(payload), capture_output=True, text=True,
        cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def node_results(tmp_path_factory):
    keys = {n: entry["keys"] for n, entry in kimariji_list.demo_data().items()}
    sets = read_sets()
    splits = [(p.kami_kana, k) for p in catalogue.poems() for k in (1, 5, 6, 7, 30)]
    out = run_node({"keys": keys, "cases": sets, "splits": splits}, tmp_path_factory.mktemp("js"))
    return sets, splits, out


def test_js_rule_agrees_with_python_on_random_read_sets(node_results):
    sets, _, out = node_results
    assert len(sets) > 500 and len(out["lengths"]) == len(sets)
    shrunk = 0
    for read, js in zip(sets, out["lengths"], strict=True):
        python = {str(n): kimariji.dynamic_kimariji(n, read) for n in range(1, 101)}
        assert js == python, sorted(read)
        shrunk += sum(python[str(n)] < kimariji.static_kimariji(n) for n in range(1, 101))
    assert shrunk > 1000  # the sets really exercise shrinking kimariji


def test_js_reproduces_the_rules_examples(node_results):
    sets, _, out = node_results
    by_set = {tuple(read): lengths for read, lengths in zip(sets, out["lengths"], strict=True)}
    assert kimariji.kimariji_kana(75, by_set[()]["75"]) == "ちぎりお"
    assert kimariji.kimariji_kana(75, by_set[(42,)]["75"]) == "ちぎ"
    assert kimariji.kimariji_kana(31, by_set[(64,)]["31"]) == "あさぼ"
    a_family = [p.number for p in catalogue.poems() if p.kami_sounds[0] == "あ"]
    assert len(a_family) == 16
    for last in a_family:
        read = tuple(n for n in a_family if n != last)
        assert by_set[read][str(last)] == 1


def test_js_splits_printed_kana_like_python(node_results):
    _, splits, out = node_results
    for (text, n), js in zip(splits, out["splits"], strict=True):
        assert tuple(js) == kimariji_list.split_printed(text, n)
