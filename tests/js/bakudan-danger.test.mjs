import assert from "node:assert/strict";
import { test } from "node:test";

import { dangerLevel, dangerModel, dangerRatio, formatPercent } from "../../static/js/bakudan/danger.js";
import { seatView } from "./bakudan-fixtures.mjs";

test("ratio is bombs over cards, and safe on an empty or odd deck", () => {
  assert.equal(dangerRatio(1, 4), 0.25);
  assert.equal(dangerRatio(2, 3), 2 / 3);
  assert.equal(dangerRatio(0, 10), 0);
  assert.equal(dangerRatio(1, 0), 0);
  assert.equal(dangerRatio(Number.NaN, 5), 0);
  assert.equal(dangerRatio(3, 2), 1); // never more than certain
});

test("levels change at 10, 25 and 50 percent", () => {
  assert.equal(dangerLevel(0), "low");
  assert.equal(dangerLevel(0.099), "low");
  assert.equal(dangerLevel(0.1), "medium");
  assert.equal(dangerLevel(0.2499), "medium");
  assert.equal(dangerLevel(0.25), "high");
  assert.equal(dangerLevel(0.5), "extreme");
  assert.equal(dangerLevel(1), "extreme");
});

test("percent keeps one decimal only below ten percent", () => {
  assert.equal(formatPercent(0.25, "en"), "25%");
  assert.equal(formatPercent(1 / 3, "en"), "33%");
  assert.equal(formatPercent(1 / 24, "en"), "4.2%");
  assert.equal(formatPercent(0, "en"), "0%");
  assert.equal(formatPercent(0.5, "ja"), "50%");
});

test("the model trusts the view's danger and reports its counts", () => {
  const model = dangerModel(seatView({ deck_count: 8, bombs_in_deck: 2, danger: 0.25 }), "en");
  assert.deepEqual(model, { ratio: 0.25, percent: "25%", level: "high", bombs: 2, cards: 8, width: "25%" });
  const computed = dangerModel({ deck_count: 3, bombs_in_deck: 1 }, "en");
  assert.equal(computed.percent, "33%");
  assert.equal(dangerModel(null), null);
});
