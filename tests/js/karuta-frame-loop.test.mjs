// node --test: the karuta clock's duties run every frame until the game is over, then stop.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BACKGROUND_MS, runClock } from "../../static/js/karuta/frame-loop.js";

/** Frames and one interval, run by hand. */
function fakeTimers() {
  const t = { frames: [], intervals: new Map(), next: 1 };
  t.frame = (fn) => t.frames.push(fn);
  t.every = (fn, ms) => { t.intervals.set(t.next, { fn, ms }); return t.next++; };
  t.cancel = (id) => t.intervals.delete(id);
  t.drawFrame = () => { const due = t.frames.splice(0); for (const fn of due) fn(); return due.length; };
  t.fireIntervals = () => { for (const { fn } of [...t.intervals.values()]) fn(); };
  return t;
}

test("it ticks every frame, and from a background timer, while the game goes on", () => {
  const t = fakeTimers();
  let ticks = 0;
  runClock({ tick: () => ticks++, over: () => false, ...t });
  for (let i = 0; i < 5; i++) assert.equal(t.drawFrame(), 1, "one chain of frames");
  assert.equal(ticks, 5);
  assert.equal([...t.intervals.values()][0].ms, BACKGROUND_MS);
  t.fireIntervals();
  assert.equal(ticks, 6);
  assert.equal(t.frames.length, 1, "the timer's tick starts no second chain");
});

test("once the game is over it ticks one last time and asks for nothing more", () => {
  const t = fakeTimers();
  let ticks = 0;
  let done = false;
  const clock = runClock({ tick: () => ticks++, over: () => done, ...t });
  t.drawFrame();
  done = true;
  t.drawFrame();
  assert.equal(ticks, 2, "the tick that sees the end still draws it");
  assert.equal(t.frames.length, 0);
  assert.equal(t.intervals.size, 0);
  assert.equal(clock.running(), false);
  t.fireIntervals();
  assert.equal(ticks, 2);
});

test("a game over when the page opens stops after one tick from the timer too", () => {
  const t = fakeTimers();
  let ticks = 0;
  runClock({ tick: () => ticks++, over: () => true, ...t });
  t.fireIntervals();
  assert.equal(ticks, 1);
  assert.equal(t.drawFrame(), 1);
  assert.equal(ticks, 1, "the pending frame finds the clock stopped");
});
