// node --test: the reader's clock on the server's time, the released reading, and frames
// held until the reader gets there.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ARRANGE_UNTIL, SYNC_MS, dueKana, holdMs, minutes, nextChange, readingAt, readingBase, shownKana, startReading, syncInterval, timeOn, verseTimes } from "../../static/js/karuta/clock.js";

// A reading as the server releases it (games/karuta/release.py): the first three kana are
// out, the poem is known (its deciding kana, the third, is out too).
const reading = {
  number: 3, unit: 100, t0: 2000, close: 9000, decided: 200, kimariji: 3, poem: 17,
  preamble: [{ part: "prev", kana: "あい うえ", start: -2000, end: -500 }],
  kana: [["あ", 0, "あ"], ["き", 100, "き"], ["の", 200, "の"]],
  shimo: null,
};
// Earlier in the same reading: one kana out, nothing that names the poem.
const early = { ...reading, kana: [["あ", 0, "あ"]], poem: null, decided: null, kimariji: null, close: null };

test("one unit per kana and 2.5 units between phrases", () => {
  assert.deepEqual(verseTimes("あい うえ", 100), [0, 100, 450, 550]);
  assert.equal(shownKana([0, 100, 450], -1), 0);
  assert.equal(shownKana([0, 100, 450], 100), 2);
});

test("the reading's t = 0 is the state's start plus t0, on the server's clock", () => {
  const at = 1_700_000_000_000;
  const cur = startReading(reading, readingBase(at, reading));
  assert.equal(timeOn(cur, at), -2000); // the state began as the preamble started
  assert.equal(timeOn(cur, at + 2000), 0);
  assert.equal(timeOn(cur, at + 2150.4), 150);
  assert.equal(timeOn(null, 5), -Infinity);
});

test("nothing of the poem before t = 0; kana as they come due; the kimariji once decided", () => {
  const before = readingAt(reading, -1900, true);
  assert.equal(before.shown, 0);
  assert.equal(before.prev, "あい");
  assert.deepEqual(readingAt(reading, 150, true).upper, ["あ", "き"]);
  assert.equal(readingAt(reading, 150, true).decided, 0);
  const after = readingAt(reading, 260, true);
  assert.deepEqual([after.shown, after.decided], [3, 3]);
  assert.equal(readingAt(reading, 260, false).decided, 0);
  // A kana released ahead of its time waits for it; what was not released is not shown.
  assert.deepEqual(readingAt(early, 5000, true).upper, ["あ"]);
  assert.equal(readingAt(early, 5000, true).decided, 0, "no kimariji while the poem is unknown");
  assert.deepEqual(dueKana(undefined, 10), []);
});

test("the lower verse shows as its kana come due", () => {
  const chirashi = { ...reading, shimo: { kana: [["く", 1000, "くもの"], ["も", 1100, ""], ["の", 1200, ""]], end: 2000, again: null } };
  assert.equal(readingAt(chirashi, 999, true).lower, "");
  assert.equal(readingAt(chirashi, 1150, true).lower, "くも");
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
  // Nobody took it and the close never reached this page (the poem was not released yet).
  assert.equal(holdMs(frame(null), startReading(early, 0), 0), 0);
  assert.equal(minutes(75), "1:15");
});

test("the clock estimate is kept fresh before the first reading, not only during one", () => {
  // Memorising (no reading yet) and sending a card lead up to a reading whose first kana
  // and clip are placed on the estimate as it stands: ping as often as during a reading.
  assert.equal(syncInterval({ phase: "memorise", reading: null }), SYNC_MS);
  assert.equal(syncInterval({ phase: "reading", reading: reading }), SYNC_MS);
  assert.equal(syncInterval({ phase: "send", reading: null }), SYNC_MS);
  assert.equal(syncInterval({ phase: "over", reading: null }), null); // the heartbeat's pace
  assert.equal(syncInterval(null), null);
  assert.ok(SYNC_MS <= 2000);
});

test("what the reading lines show changes only at the times nextChange names", () => {
  const chirashi = {
    ...reading,
    shimo: { kana: [["く", 1000, "くもの"], ["も", 1100, ""], ["の", 1200, ""]], end: 2000, again: { start: 2500 } },
    touches: [[1, 17, 640]],
  };
  for (const r of [reading, early, chirashi]) {
    let due = 0;
    let t = -2600;
    while (t < 12000) {
      const next = nextChange(r, t);
      assert.ok(next > t, `after ${t}`);
      const shown = JSON.stringify(readingAt(r, t, true));
      // Every time before the next due one shows the same as t (the page is not woken then).
      for (let u = t + 1; u < Math.min(next, 12000); u += 1) assert.equal(JSON.stringify(readingAt(r, u, true)), shown, `at ${u} (from ${t})`);
      if (next === Infinity) break;
      t = next;
      due += 1;
    }
    assert.ok(due < 40, "a handful of wake-ups, not one a frame");
  }
});

test("the prompt's moments, the touches, the close and the lower verse read again are due too", () => {
  const r = { ...early, close: 9000, touches: [[1, 4, 640]], shimo: { kana: [], again: { start: 7000 } } };
  assert.equal(nextChange(r, -2600), -2000, "the preamble starts");
  assert.equal(nextChange(r, -501), -500);
  assert.equal(nextChange(r, ARRANGE_UNTIL - 1), ARRANGE_UNTIL);
  assert.equal(nextChange(r, 639), 640, "another seat's touch is shown");
  assert.equal(nextChange(r, 640), 641, "and a pass may follow it");
  assert.equal(nextChange(r, 6000), 7000);
  assert.equal(nextChange(r, 7000), 9001, "passed once the clock is beyond the close");
  assert.equal(nextChange(r, 9001), Infinity);
  assert.equal(nextChange({ ...early, preamble: [], close: null, touches: [] }, 1), Infinity, "an unknown close is no time");
});
