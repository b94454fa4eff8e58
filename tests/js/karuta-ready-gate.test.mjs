// node --test: the page says "ready" once it can play the first reading, or after
// READY_CAP_MS at the latest, and only once (issue 43: the first reading after a skip).
import assert from "node:assert/strict";
import { test } from "node:test";
import { READY_CAP_MS, ReadyGate } from "../../static/js/karuta/ready-gate.js";

function gate() {
  let t = 1000;
  return { g: new ReadyGate(() => t), at: (ms) => { t = 1000 + ms; } };
}

test("nothing is sent before it is wanted, even when the page can play", () => {
  const { g } = gate();
  assert.equal(g.due(true), false);
  assert.equal(g.wanted, false);
});

test("wanted and able to play: sent at once, and once", () => {
  const { g } = gate();
  g.want();
  assert.equal(g.due(true), true);
  assert.equal(g.due(true), false);
});

test("wanted but not able to play: held until it can, or until the cap from the want", () => {
  const { g, at } = gate();
  at(500);
  g.want();
  at(500 + READY_CAP_MS - 1);
  assert.equal(g.due(false), false);
  at(600);
  g.want(); // asked again (a second click): the cap still counts from the first
  at(500 + READY_CAP_MS);
  assert.equal(g.due(false), true);
  assert.equal(g.due(true), false);
});

test("able to play before the cap: sent then", () => {
  const { g, at } = gate();
  g.want();
  at(700);
  assert.equal(g.due(false), false);
  assert.equal(g.due(true), true);
});

test("reset: a new memorisation starts with nothing wanted or sent", () => {
  const { g } = gate();
  g.want();
  g.due(true);
  g.reset();
  assert.equal(g.due(true), false);
  g.want();
  assert.equal(g.due(true), true);
});
