// node --test: grading by correctness and time, and scheduling through ts-fsrs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { AGAIN, BUDGETS, EASY, GOOD, HARD, grade } from "../../static/js/trainer/grade.js";
import { ask, dueQueue, isDue, mostMissed, newLeftToday, newRecord, recall, review, status } from "../../static/js/trainer/schedule.js";

const DAY = 86400000;
const T0 = Date.UTC(2026, 11, 1, 12);

test("a wrong answer is Again however fast; a right one by its time", () => {
  assert.equal(grade({ correct: false, ms: 100, drill: "choose" }), AGAIN);
  assert.equal(grade({ correct: true, ms: BUDGETS.choose.easy, drill: "choose" }), EASY);
  assert.equal(grade({ correct: true, ms: BUDGETS.choose.easy + 1, drill: "choose" }), GOOD);
  assert.equal(grade({ correct: true, ms: BUDGETS.choose.good + 1, drill: "choose" }), HARD);
  assert.equal(grade({ correct: true, ms: 20000, drill: "nagashi" }), HARD);
});

test("typing gets time for each kana typed", () => {
  const ms = BUDGETS.type.easy + 3 * BUDGETS.type.perKana;
  assert.equal(grade({ correct: true, ms, drill: "type", kana: 3 }), EASY);
  assert.equal(grade({ correct: true, ms, drill: "type", kana: 1 }), GOOD);
  assert.throws(() => grade({ correct: true, ms: -1, drill: "type" }));
  assert.throws(() => grade({ correct: true, ms: 1, drill: "guess" }));
});

test("FSRS schedules a fast right answer further out than a slow one", () => {
  const fast = review(newRecord(1), { rating: grade({ correct: true, ms: 900, drill: "choose" }), ms: 900, now: T0 });
  const slow = review(newRecord(1), { rating: grade({ correct: true, ms: 6000, drill: "choose" }), ms: 6000, now: T0 });
  assert.ok(fast.card.due > slow.card.due, "Easy is due later than Hard");
  assert.ok(fast.card.stability > slow.card.stability);
  assert.equal(fast.first, T0);
  assert.equal(fast.ms, 900);
});

test("a poem answered well for weeks becomes known; a miss brings it back", () => {
  let r = newRecord(7);
  let now = T0;
  assert.equal(status(r), "new");
  r = review(r, { rating: GOOD, ms: 1200, now });
  assert.equal(status(r), "learning");
  for (let i = 0; i < 6; i += 1) {
    now = Math.max(now + 60000, r.card.due);
    r = review(r, { rating: EASY, ms: 1000, now });
  }
  assert.equal(status(r), "known");
  assert.ok(recall(r, now) > 0.9);
  const lapsed = review(r, { rating: AGAIN, ms: 3000, now: r.card.due, chosen: 8 });
  assert.equal(status(lapsed), "learning");
  assert.equal(lapsed.misses, 1);
  assert.deepEqual(lapsed.confused, { 8: 1 });
  assert.equal(lapsed.ms, r.ms, "a miss leaves the speed of right answers");
  assert.ok(lapsed.card.due < r.card.due + DAY);
});

test("the same answers at the same times give the same schedule", () => {
  const run = () => [GOOD, HARD, EASY, AGAIN, GOOD].reduce((r, rating, i) => review(r, { rating, ms: 1000, now: T0 + i * DAY }), newRecord(3));
  assert.deepEqual(run(), run());
});

test("today's review: due poems most overdue first, then the new poems left for today", () => {
  const records = new Map();
  records.set(5, review(newRecord(5), { rating: GOOD, ms: 1000, now: T0 - 2 * DAY }));
  records.set(9, review(newRecord(9), { rating: AGAIN, ms: 1000, now: T0 - DAY }));
  records.set(2, review(newRecord(2), { rating: EASY, ms: 1000, now: T0 }));
  assert.ok(isDue(records.get(5), T0) && isDue(records.get(9), T0) && !isDue(records.get(2), T0));
  const queue = dueQueue(records, T0, { newLeft: 3 });
  assert.deepEqual(queue, [5, 9, 1, 3, 4]);
  assert.equal(newLeftToday(records, T0 - DAY), 8); // 9 and 2 were met since then
  assert.deepEqual(dueQueue(records, T0, { poems: [9, 2, 50], newLeft: 0 }), [9]);
});

test("the poems missed most, each with the poem it was taken for", () => {
  const records = new Map();
  let a = newRecord(31);
  for (const chosen of [64, 64, 39]) a = review(a, { rating: AGAIN, ms: 2000, now: T0, chosen });
  records.set(31, a);
  records.set(42, review(newRecord(42), { rating: AGAIN, ms: 2000, now: T0, chosen: 75 }));
  records.set(1, review(newRecord(1), { rating: GOOD, ms: 2000, now: T0 }));
  assert.deepEqual(mostMissed(records), [
    { n: 31, misses: 3, seen: 3, confusedWith: 64 },
    { n: 42, misses: 1, seen: 1, confusedWith: 75 },
  ]);
});

test("a poem asked for from a game is in today's review until it is reviewed", () => {
  const records = new Map();
  records.set(2, ask(review(newRecord(2), { rating: EASY, ms: 1000, now: T0 - DAY }), T0));
  records.set(60, ask(newRecord(60), T0));
  assert.deepEqual(dueQueue(records, T0 + 1, { newLeft: 1 }), [2, 60, 1]);
  records.set(2, review(records.get(2), { rating: EASY, ms: 1000, now: T0 + 2 }));
  assert.ok(!isDue(records.get(2), T0 + 3));
});
