// node --test: the poem of the day.
import assert from "node:assert/strict";
import { test } from "node:test";

import { japanDayNumber, mulberry32, order, poemOfDay } from "../../static/js/trainer/daily.js";

test("mulberry32 is the published generator", () => {
  const rand = mulberry32(42);
  // The first outputs of mulberry32(42), as the reference C/JS code gives them.
  assert.deepEqual([rand(), rand()].map((x) => Math.floor(x * 2 ** 32)), [2581720956, 1925393290]);
});

test("each run of 100 days shows every poem once", () => {
  for (const run of [0, 1, 97]) assert.deepEqual([...order(run)].sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => i + 1));
  assert.notDeepEqual(order(0), order(1));
  const days = Array.from({ length: 100 }, (_, i) => poemOfDay(300 + i));
  assert.equal(new Set(days).size, 100);
});

test("the date is Japan's: the poem changes at midnight in Tokyo, for everyone", () => {
  const tokyoMidnight = Date.UTC(2026, 11, 1, 15); // 2 December 00:00 in Japan
  assert.equal(japanDayNumber(tokyoMidnight - 1) + 1, japanDayNumber(tokyoMidnight));
  assert.equal(japanDayNumber(Date.UTC(2000, 0, 1, 0)), 0);
  assert.equal(japanDayNumber(Date.UTC(1999, 11, 31, 15)), 0);
  assert.equal(japanDayNumber(Date.UTC(1999, 11, 31, 14, 59)), -1);
  assert.equal(poemOfDay(japanDayNumber(tokyoMidnight)), poemOfDay(japanDayNumber(tokyoMidnight + 86399999)));
});
