// node --test: the reader's clock with an injected time; frames held until the reader gets there.
import assert from "node:assert/strict";
import { test } from "node:test";

import { holdMs, minutes, readingAt, shownKana, startReading, timeOn, verseTimes } from "../../static/js/karuta/clock.js";

const reading = {
  number: 3, unit: 100, close: 9000, decided: 250, kimariji: 3,
  preamble: [{ part: "prev", kana: "あい うえ", start: -2000, end: -500 }],
  kami: { kana: ["あ", "き", "の", "た", "の"], t: [0, 100, 200, 300, 400] },
  shimo: null,
};

test("one unit per kana and 2.5 units between phrases", () => {
  assert.deepEqual(verseTimes("あい うえ", 100), [0, 100, 450, 550]);
  assert.equal(shownKana([0, 100, 450], -1), 0);
  assert.equal(shownKana([0, 100, 450], 100), 2);
});

test("the clock starts at the preamble, so the poem appears at its t = 0", () => {
  const cur = startReading(reading, 10000);
  assert.equal(timeOn(cur, 10000), -2000);
  assert.equal(timeOn(cur, 12000), 0);
  assert.equal(timeOn(null, 5), -Infinity);
});

test("nothing of the poem before t = 0; the kimariji marked once decided", () => {
  const early = readingAt(reading, -1900, true);
  assert.equal(early.shown, 0);
  assert.equal(early.prev, "あい");
  assert.equal(readingAt(reading, 150, true).decided, 0);
  const after = readingAt(reading, 260, true);
  assert.deepEqual([after.shown, after.decided], [3, 3]);
  assert.equal(readingAt(reading, 260, false).decided, 0);
});

test("a frame settling the reading waits for the reader's clock, at most a minute", () => {
  const cur = startReading(reading, 0);
  const frame = (t) => ({ events: [{ events: [{ type: "result", number: 3, t }] }] });
  assert.equal(holdMs(frame(1200), cur, 200), 1000);
  assert.equal(holdMs(frame(100), cur, 200), 0);
  assert.equal(holdMs(frame(null), cur, 0), 9000); // nobody took it: the close
  assert.equal(holdMs(frame(10 ** 7), cur, 0), 60000);
  assert.equal(holdMs({ events: [{ events: [{ type: "result", number: 4, t: 5000 }] }] }, cur, 0), 0);
  assert.equal(holdMs(frame(1200), null, 0), 0);
  assert.equal(minutes(75), "1:15");
});
