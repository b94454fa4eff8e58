// node --test: a game start or end is reported once per match in a tab, reloads included.
import assert from "node:assert/strict";
import { test } from "node:test";

import { firstTime } from "../../static/js/once.js";

const memory = () => { const m = new Map(); return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v) }; };

test("once per match and kind", () => {
  const tab = memory();
  assert.equal(firstTime("start", "m1", tab), true);
  assert.equal(firstTime("start", "m1", tab), false, "the reload");
  assert.equal(firstTime("end", "m1", tab), true);
  assert.equal(firstTime("start", "m2", tab), true, "the next game (play again)");
});

test("a broken or blocked storage never stops the page", () => {
  const junk = { getItem: () => "{not json", setItem: () => {} };
  assert.equal(firstTime("start", "m", junk), true);
  const blocked = { getItem() { throw new Error("no"); }, setItem() { throw new Error("no"); } };
  assert.equal(firstTime("start", "m", blocked), true);
  assert.equal(firstTime("start", "m", undefined), true);
});

test("only the last few matches are kept", () => {
  const tab = memory();
  for (let i = 0; i < 50; i += 1) firstTime("start", `m${i}`, tab);
  assert.equal(firstTime("start", "m49", tab), false);
  assert.equal(firstTime("start", "m0", tab), true, "forgotten long ago");
});
