// node --test: the karuta clock's duties run when something is due (after a wait, in the
// frame that follows it), never every frame, and stop once the game is over.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BACKGROUND_MS, MAX_WAIT_MS, runClock } from "../../static/js/karuta/frame-loop.js";

/** Frames and timers, run by hand. */
function fakeTimers({ hidden = false } = {}) {
  const t = { frames: new Map(), timers: new Map(), id: 1, isHidden: hidden };
  t.frame = (fn) => { t.frames.set(t.id, fn); return t.id++; };
  t.cancelFrame = (id) => t.frames.delete(id);
  t.wait = (fn, ms) => { t.timers.set(t.id, { fn, ms }); return t.id++; };
  t.cancelWait = (id) => t.timers.delete(id);
  t.hidden = () => t.isHidden;
  t.drawFrame = () => { const due = [...t.frames.values()]; t.frames.clear(); for (const fn of due) fn(); return due.length; };
  /** The shortest timer fires; returns its delay. */
  t.fire = () => {
    const [id, { fn, ms }] = [...t.timers.entries()].sort((a, b) => a[1].ms - b[1].ms)[0];
    t.timers.delete(id);
    fn();
    return ms;
  };
  t.waits = () => [...t.timers.values()].map(({ ms }) => ms).sort((a, b) => a - b);
  return t;
}

test("it ticks in the first frame, then waits for the next due time and ticks in the frame after it", () => {
  const t = fakeTimers();
  let ticks = 0;
  runClock({ tick: () => ticks++, over: () => false, next: () => 120.4, ...t });
  assert.equal(t.drawFrame(), 1);
  assert.equal(ticks, 1);
  assert.equal(t.frames.size, 0, "no frame is asked for while waiting");
  assert.deepEqual(t.waits(), [121]);
  assert.equal(t.fire(), 121);
  assert.equal(ticks, 1, "the wait asks for a frame; the tick is drawn in it");
  assert.equal(t.frames.size, 1);
  t.drawFrame();
  assert.equal(ticks, 2);
  assert.deepEqual(t.waits(), [121], "one wait at a time: the frame's backup went with it");
});

test("nothing due: it looks again after MAX_WAIT_MS, not every frame", () => {
  const t = fakeTimers();
  let ticks = 0;
  runClock({ tick: () => ticks++, over: () => false, next: () => Infinity, ...t });
  t.drawFrame();
  assert.deepEqual(t.waits(), [MAX_WAIT_MS]);
  for (let i = 0; i < 10; i++) { t.fire(); t.drawFrame(); }
  assert.equal(ticks, 11, "one tick a second while idle");
  const broken = fakeTimers();
  runClock({ tick: () => {}, over: () => false, next: () => NaN, ...broken });
  broken.drawFrame();
  assert.deepEqual(broken.waits(), [MAX_WAIT_MS], "no time is no busy loop");
});

test("wake() replaces the wait with one for the times that just came in", () => {
  const t = fakeTimers();
  let due = 800;
  const clock = runClock({ tick: () => {}, over: () => false, next: () => due, ...t });
  t.drawFrame();
  assert.deepEqual(t.waits(), [800]);
  due = 30;
  clock.wake();
  assert.deepEqual(t.waits(), [30]);
  clock.soon();
  assert.equal(t.frames.size, 1, "soon(): the next frame");
  assert.deepEqual(t.waits(), [BACKGROUND_MS]);
});

test("a hidden tab has no frames: the timers tick; a frame that never comes is not waited for", () => {
  const t = fakeTimers({ hidden: true });
  let ticks = 0;
  runClock({ tick: () => ticks++, over: () => false, next: () => 50, ...t });
  t.fire();
  assert.equal(ticks, 1);
  assert.equal(t.fire(), 50);
  assert.equal(t.fire(), 0);
  assert.equal(ticks, 2);
  assert.equal(t.frames.size, 0);
  const lost = fakeTimers();
  let lostTicks = 0;
  runClock({ tick: () => lostTicks++, over: () => false, next: () => 50, ...lost });
  assert.equal(lost.fire(), BACKGROUND_MS);
  assert.equal(lostTicks, 1);
  assert.equal(lost.frames.size, 0, "the frame it replaced is cancelled");
});

test("once the game is over it ticks one last time and asks for nothing more", () => {
  const t = fakeTimers();
  let ticks = 0;
  let done = false;
  const clock = runClock({ tick: () => ticks++, over: () => done, next: () => 10, ...t });
  t.drawFrame();
  done = true;
  t.fire();
  t.drawFrame();
  assert.equal(ticks, 2, "the tick that sees the end still draws it");
  assert.equal(t.frames.size + t.timers.size, 0);
  assert.equal(clock.running(), false);
  clock.wake();
  clock.soon();
  assert.equal(t.frames.size + t.timers.size, 0);
});
