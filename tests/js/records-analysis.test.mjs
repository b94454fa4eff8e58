// node --test: what the record computes from replayed steps, and its line chart.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bakudanMarks, draws, handSeries, practiceRecords, readings, slowest, takeSeries } from "../../static/js/records/analysis.js";
import { picks } from "../../static/js/trainer/from-play.js";
import { lineChartSvg } from "../../static/js/records/chart.js";

const competitive = [
  { kind: "start", seat: null, events: [], view: { reading: { number: 1, decided: 1000 } } },
  { kind: "game", seat: 1, events: [{ type: "touch", seat: 1 }], view: { reading: { number: 1, decided: 1000 } } },
  { kind: "refused", seat: 0, events: [], view: { reading: { number: 1, decided: 1000 } } },
  { kind: "game", seat: 0, events: [
    { type: "result", number: 1, poem: 7, dead: false, taker: 1, reaches: [[1, 1400], [0, 1650]], by: 250, otetsuki: [1, 0], send: { from: 1, to: 0, count: 1 } },
    { type: "reading", number: 2 },
  ], view: { reading: { number: 2, decided: 800 } } },
  { kind: "game", seat: 0, events: [
    { type: "result", number: 2, poem: 9, dead: false, taker: 0, reaches: [[0, 900]], by: null, otetsuki: [0, 0], send: null },
  ], view: { reading: { number: 3, decided: 500 } } },
  { kind: "game", seat: 1, events: [{ type: "result", number: 3, poem: 4, dead: true, taker: null, reaches: [], otetsuki: [0, 1] }], view: { reading: null } },
];

test("karuta readings: taker, each touch after the deciding kana, otetsuki, sends, refusals", () => {
  const list = readings(competitive);
  assert.equal(list.length, 3);
  assert.deepEqual(list[0].reaches, [{ seat: 1, after: 400 }, { seat: 0, after: 650 }]);
  assert.equal(list[0].taker, 1);
  assert.deepEqual(list[0].otetsuki, [1, 0]);
  assert.deepEqual(list[0].send, { from: 1, to: 0, count: 1 });
  assert.deepEqual(list[0].refused, [0]);
  assert.deepEqual(list[1].reaches, [{ seat: 0, after: 100 }]); // decided 800, from the reading before
  assert.deepEqual(list[1].refused, []);
  assert.equal(list[2].dead, true);
  assert.deepEqual(takeSeries(list, 2), [[650, 100], [400, null]]); // dead cards are left out
  assert.deepEqual(slowest(list, 1, 5), [{ poem: 9, after: null }, { poem: 7, after: 400 }]);
  assert.deepEqual(slowest(list, 0, 1), [{ poem: 7, after: 650 }]);
});

test("karuta: a seat's readings for the trainer's review, missed and faulted cards first", () => {
  const list = readings(competitive);
  assert.deepEqual(practiceRecords(list, 0), [
    { poem: 7, t: 650, wrong: [7], after_kimariji: 650 }, // seat 0's otetsuki on reading 1
    { poem: 9, t: 100, wrong: [], after_kimariji: 100 },
  ]);
  assert.deepEqual(picks(practiceRecords(list, 0)), [7, 9]); // the faulted card first
  assert.deepEqual(picks(practiceRecords(list, 1)), [9, 7]); // missed (not touched) first
  const solo = readings([{ kind: "game", seat: 0, events: [{ type: "result", number: 1, poem: 3, decided: 2000, t: 2600, wrong: [[5, 2100]] }] }]);
  assert.deepEqual(practiceRecords(solo, 0), [{ poem: 3, t: 600, wrong: [3], after_kimariji: 600 }]);
});

test("karuta solo records: the decided time comes with the result", () => {
  const list = readings([{ kind: "game", seat: 0, events: [{ type: "result", number: 1, poem: 3, decided: 2000, t: 2600, wrong: [[5, 2100]] }] }]);
  assert.deepEqual(list[0].reaches, [{ seat: 0, after: 600 }]);
  assert.equal(list[0].taker, 0);
  assert.equal(list[0].wrong, 1);
});

test("bozu hand sizes per seat and the draws in order", () => {
  const steps = [
    { events: [], view: { hand_counts: [0, 0] } },
    { events: [{ type: "drew", seat: 0, poem: 12, poet: "A" }], view: { hand_counts: [1, 0] } },
    { events: [{ type: "drew", seat: 1, poem: 40, poet: "B" }], view: { hand_counts: [1, 3] } },
  ];
  assert.deepEqual(handSeries(steps), [[0, 1, 1], [0, 0, 3]]);
  assert.deepEqual(draws(steps).map((d) => [d.step, d.seat, d.poem]), [[1, 0, 12], [2, 1, 40]]);
});

test("bakudan marks bomb placements and peeks", () => {
  assert.deepEqual(bakudanMarks({ events: [{ type: "bomb_placed", seat: 0, where: "top" }] }), { placed: true, peeked: false });
  assert.deepEqual(bakudanMarks({ events: [{ type: "peeked", seat: 1, cards: [] }] }), { placed: false, peeked: true });
});

test("the line chart draws one path per series, with gaps for missing values", () => {
  const svg = lineChartSvg([
    { label: "Red", colour: "red", values: [1, 2, null, 4] },
    { label: "Blue", colour: "blue", values: [0, 0, 0, 0] },
  ], { title: "Takes", unit: " s" });
  assert.match(svg, /role="img" aria-label="Takes"/);
  assert.equal([...svg.matchAll(/class="chart-series"/g)].length, 2);
  const red = /data-series="Red"><path d="([^"]+)"/.exec(svg)[1];
  assert.equal((red.match(/M/g) || []).length, 2); // the gap starts a new line
  assert.equal([...svg.matchAll(/<circle/g)].length, 7);
});
