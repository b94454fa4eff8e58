// node --test: torifuda columns, the sides seen across the table, moving cards, and
// otetsuki counted as the engine counts them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { dropped, faultsSoFar, longestRow, moved, scatterColumns, scatterOrder, scatterPlace, sideRows, torifudaColumns } from "../../static/js/karuta/layout.js";

test("a torifuda is five columns of three, the rest in the last", () => {
  assert.deepEqual(torifudaColumns("わかころもては つゆにぬれつつ"), ["わかこ", "ろもて", "はつゆ", "にぬれ", "つつ"]);
  assert.equal(torifudaColumns("あ".repeat(17)).length, 5);
  assert.equal(torifudaColumns("あ".repeat(17))[4], "あああああ");
});

test("the opponent's side: lower row farthest, each row reversed", () => {
  const rows = [[1, 2], [3], [4, 5]];
  assert.deepEqual(sideRows(rows, true), [{ row: 2, cards: [5, 4] }, { row: 1, cards: [3] }, { row: 0, cards: [2, 1] }]);
  assert.deepEqual(sideRows(rows, false).map((r) => r.row), [0, 1, 2]);
  assert.deepEqual(rows, [[1, 2], [3], [4, 5]], "not changed");
});

test("moving and dropping your cards", () => {
  const rows = [[1, 2], [3], [4]];
  assert.deepEqual(moved(rows, 2, 1, 0), [[1], [3, 2], [4]]);
  assert.deepEqual(moved(rows, 1, 0, 1), [[2, 1], [3], [4]]);
  assert.equal(moved(rows, 1, -1, 0), null);
  assert.equal(moved(rows, 9, 1, 0), null);
  assert.deepEqual(dropped(rows, 1, 2, 4), [[2], [3], [1, 4]]);
  assert.deepEqual(dropped(rows, 1, 1, null), [[2], [3, 1], [4]]);
});

test("the chirashi field: columns, keyboard order by bands, places inside the field", () => {
  assert.equal(scatterColumns(20), 5);
  assert.equal(scatterColumns(100), 10);
  const order = scatterOrder([[1, 0.9, 0.1, 0], [2, 0.1, 0.12, 0], [3, 0.5, 0.9, 0]], 5).map((e) => e[0]);
  assert.deepEqual(order, [2, 1, 3]);
  assert.deepEqual(scatterPlace(0, 1), { left: "7.00%", top: "91.00%" });
});

test("otetsuki as the engine counts it", () => {
  const side = { 10: 0, 11: 0, 20: 1, 21: 1 };
  const sideOf = (p) => side[p] ?? null;
  assert.equal(faultsSoFar("competitive", [11], 10, sideOf), 0, "same side as the read card");
  assert.equal(faultsSoFar("competitive", [20], 10, sideOf), 1, "the other side");
  assert.equal(faultsSoFar("competitive", [20, 21, 10], 10, sideOf), 1, "once per reading");
  assert.equal(faultsSoFar("competitive", [10, 20], 99, sideOf), 2, "dead card: one per side");
  assert.equal(faultsSoFar("chirashi", [1, 2], 3, sideOf), 1);
  assert.equal(faultsSoFar("solo", [1, 2], 3, sideOf), 2);
  assert.equal(faultsSoFar("solo", [3], 3, sideOf), 0);
});

test("the longest row of either side sets a phone's card size", () => {
  assert.equal(longestRow([[[1, 2], [3, 4, 5], []], [[6], [], [7, 8, 9, 10]]]), 4);
  assert.equal(longestRow([[[], [], []], [[], [], []]]), 1, "an empty board still divides by one");
  assert.equal(longestRow(undefined), 1);
});
