// node --test: the record's step-through: clamping, #N, keys and autoplay on a fake clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Stepper, clampStep, keyStep, stepFromHash } from "../../static/js/records/stepper.js";

test("a step out of range is the nearest one", () => {
  assert.equal(clampStep(-4, 10), 0);
  assert.equal(clampStep(42, 10), 9);
  assert.equal(clampStep(Number.NaN, 10), 0);
  assert.equal(clampStep(3, 0), 0);
});

test("#N opens at move N, or the nearest", () => {
  assert.equal(stepFromHash("#5", 10), 5);
  assert.equal(stepFromHash("#500", 10), 9);
  assert.equal(stepFromHash("#-3", 10), 0);
  assert.equal(stepFromHash("", 10), null);
  assert.equal(stepFromHash("#abc", 10), null);
});

test("arrows step, Home and End jump, other keys do nothing", () => {
  assert.equal(keyStep("ArrowRight", 3, 10), 4);
  assert.equal(keyStep("ArrowLeft", 0, 10), 0);
  assert.equal(keyStep("ArrowRight", 9, 10), 9);
  assert.equal(keyStep("Home", 6, 10), 0);
  assert.equal(keyStep("End", 2, 10), 9);
  assert.equal(keyStep("a", 2, 10), null);
});

function fakeClock() {
  const timers = [];
  return {
    timers,
    setTimer: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimer: (id) => { timers[id - 1].cancelled = true; },
    run() { const t = timers.find((x) => !x.done && !x.cancelled); if (!t) return false; t.done = true; t.fn(); return true; },
  };
}

test("autoplay walks to the end at the pace and stops; a key stops it", () => {
  const clock = fakeClock();
  const seen = [];
  const playing = [];
  const s = new Stepper(4, { onChange: (n) => { seen.push(n); playing.push(s.playing); }, ...clock });
  s.play(700);
  assert.equal(clock.timers[0].ms, 700);
  while (clock.run());
  assert.equal(s.n, 3);
  assert.equal(s.playing, false);
  assert.deepEqual(seen, [1, 2, 3]);
  assert.deepEqual(playing, [true, true, false]); // the page's button follows it
  s.play(700); // from the end: starts again at the first move
  assert.equal(s.n, 0);
  clock.run();
  assert.equal(s.n, 1);
  assert.equal(s.key("End"), true);
  assert.equal(s.playing, false);
  assert.equal(clock.run(), false); // the pending tick was cancelled
  assert.equal(s.n, 3);
});
