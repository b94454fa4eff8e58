// node --test: solo practice figures, the slowest poems and the chart.
import assert from "node:assert/strict";
import { test } from "node:test";

import { median, slowestPoems, soloChartSvg, soloFigures } from "../../static/js/karuta/stats.js";

const rec = (poem, after, wrong = 0) => ({ poem, t: after === null ? null : after + 500, after_kimariji: after, wrong: Array(wrong).fill([1, 2]) });
const records = [rec(5, 300), rec(2, null), rec(9, 1200, 1), rec(1, 300), rec(7, 800)];

test("missed first, then slowest, ties by poem number", () => {
  assert.deepEqual(slowestPoems(records, 4), [2, 9, 7, 1]);
  assert.deepEqual(slowestPoems([], 3), []);
});

test("figures: taken, mean, median, mistakes", () => {
  const f = soloFigures(records);
  assert.deepEqual([f.taken, f.total, f.mistakes], [4, 5, 1]);
  assert.equal(f.mean, 650);
  assert.equal(f.median, 550);
  assert.equal(median([]), null);
  assert.equal(median([1, 2, 9]), 2);
  assert.equal(soloFigures([]).mean, null);
});

test("the chart: one bar per poem, missed and wrong marked", () => {
  const svg = soloChartSvg(records, { title: "T<", axis: "A", label: (r) => `p${r.poem}` });
  assert.equal([...svg.matchAll(/<rect /g)].length, 5);
  assert.equal([...svg.matchAll(/class="bar missed"/g)].length, 1);
  assert.equal([...svg.matchAll(/class="bar wrong"/g)].length, 1);
  assert.match(svg, /T&#60;/);
  assert.match(svg, /<title>p9<\/title>/);
});
