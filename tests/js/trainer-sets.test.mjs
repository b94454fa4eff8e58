// node --test: the drill sets and one session's cards.
import assert from "node:assert/strict";
import { test } from "node:test";

import { mulberry32 } from "../../static/js/trainer/daily.js";
import { buildSets, findSet, sessionCards } from "../../static/js/trainer/sets.js";
import { data } from "./trainer-fixture.mjs";

const sets = buildSets(data);

test("every kind of set is there, computed", () => {
  assert.equal(findSet(sets, "all").poems.length, 100);
  assert.deepEqual(findSet(sets, "one-kana").poems, findSet(sets, "length-1").poems);
  assert.equal(findSet(sets, "one-kana").poems.length, 7);
  const byLength = sets.filter((s) => s.kind === "length");
  assert.deepEqual(byLength.map((s) => s.length), [1, 2, 3, 4, 5, 6]);
  assert.equal(byLength.reduce((sum, s) => sum + s.poems.length, 0), 100);
  const ranges = sets.filter((s) => s.kind === "range");
  assert.deepEqual(ranges.map((s) => [s.first, s.last]), [[1, 20], [21, 40], [41, 60], [61, 80], [81, 100]]);
  const colours = sets.filter((s) => s.kind === "colour");
  assert.equal(colours.length, 5);
  assert.deepEqual(colours.flatMap((s) => s.poems).sort((a, b) => a - b), findSet(sets, "all").poems);
  assert.ok(sets.some((s) => s.kind === "group" && s.prefix === "あさぼらけ"));
  assert.equal(new Set(sets.map((s) => s.id)).size, sets.length);
  assert.throws(() => findSet(sets, "nope"));
});

test("a session takes due cards first, then new ones, then the least recalled", () => {
  const set = findSet(sets, "range-1");
  const due = new Set([7, 3]);
  const fresh = new Set([11, 12, 13]);
  const recall = (n) => n / 100;
  const cards = sessionCards(set, { count: 8, isDue: (n) => due.has(n), isNew: (n) => fresh.has(n), recall, rand: mulberry32(1) });
  assert.equal(cards.length, 8);
  assert.deepEqual(new Set(cards.slice(0, 2)), due);
  assert.deepEqual(new Set(cards.slice(2, 5)), fresh);
  assert.deepEqual(cards.slice(5), [1, 2, 4]);
  const all = sessionCards(set, { count: 50, isDue: () => false, isNew: () => true, recall, rand: mulberry32(2) });
  assert.deepEqual([...all].sort((a, b) => a - b), set.poems);
  const again = sessionCards(set, { count: 50, isDue: () => false, isNew: () => true, recall, rand: mulberry32(3) });
  assert.notDeepEqual(all, again, "new cards are shuffled");
});
