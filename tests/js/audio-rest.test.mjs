// node --test: an AudioContext rests (is suspended) once nothing has sounded for a while and
// nobody holds it, and wakes before the next sound; on a fake context and fake timers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { AudioRest } from "../../static/js/audio-rest.js";

/** A context whose clock runs only while it runs, and fake timers on the same clock. */
function rig({ state = "running" } = {}) {
  let now = 0; // ms
  let timers = [];
  let nextId = 1;
  const listeners = [];
  const context = {
    state,
    ranMs: 0,
    get currentTime() { return this.ranMs / 1000; },
    addEventListener(type, fn) { if (type === "statechange") listeners.push(fn); },
    set(next) { this.state = next; for (const fn of listeners) fn(); },
    suspend() { this.set("suspended"); return Promise.resolve(); },
    resume() { this.set("running"); return Promise.resolve(); },
  };
  const setTimer = (fn, ms) => { timers.push({ id: nextId, at: now + ms, fn }); return nextId++; };
  const clearTimer = (id) => { timers = timers.filter((t) => t.id !== id); };
  const advance = (ms) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      const to = due ? due.at : end;
      if (context.state === "running") context.ranMs += to - now;
      now = to;
      if (!due) return;
      timers = timers.filter((t) => t !== due);
      due.fn();
    }
  };
  return { context, rest: new AudioRest(context, { restMs: 5000, setTimer, clearTimer }), advance };
}

test("a running context rests after the rest time without a sound, not before", () => {
  const { context, rest, advance } = rig();
  rest.busy(0);
  advance(4999);
  assert.equal(context.state, "running");
  advance(1);
  assert.equal(context.state, "suspended");
  assert.equal(rest.resting, true);
});

test("a sound keeps it awake until it ends, then the rest time", () => {
  const { context, rest, advance } = rig();
  rest.busy(2); // sounds until 2 s on the context's clock
  advance(6999);
  assert.equal(context.state, "running");
  advance(1);
  assert.equal(context.state, "suspended");
});

test("held, it never rests; let go, it rests the rest time later", () => {
  const { context, rest, advance } = rig();
  rest.hold(true);
  advance(60_000);
  assert.equal(context.state, "running");
  rest.hold(false);
  advance(4999);
  assert.equal(context.state, "running");
  advance(1);
  assert.equal(context.state, "suspended");
});

test("wake resumes a context it rested, and it rests again after the next silence", async () => {
  const { context, rest, advance } = rig();
  rest.busy(0);
  advance(5000);
  await rest.wake();
  assert.equal(context.state, "running");
  assert.equal(rest.resting, false);
  rest.busy(context.currentTime + 1);
  advance(5999);
  assert.equal(context.state, "running");
  advance(1);
  assert.equal(context.state, "suspended");
});

test("a context the browser holds for a gesture is neither suspended nor resumed here", async () => {
  const { context, rest, advance } = rig({ state: "suspended" });
  rest.busy(0);
  advance(10_000);
  await rest.wake();
  assert.equal(context.state, "suspended");
  assert.equal(rest.resting, false);
  // The gesture's own resume: from then on it rests like any other.
  context.resume();
  advance(5000);
  assert.equal(context.state, "suspended");
  assert.equal(rest.resting, true);
});

test("resumed by someone else (a key's resume), it is no longer resting and rests again", () => {
  const { context, rest, advance } = rig();
  advance(0);
  rest.busy(0);
  advance(5000);
  context.resume();
  assert.equal(rest.resting, false);
  assert.equal(rest.rested, false);
  advance(5000);
  assert.equal(context.state, "suspended");
});

test("a refused resume leaves it suspended and not resting, for the page's own button", async () => {
  const { context, rest, advance } = rig();
  rest.busy(0);
  advance(5000);
  context.resume = () => Promise.reject(new Error("NotAllowedError"));
  await assert.rejects(rest.wake());
  assert.equal(context.state, "suspended");
  assert.equal(rest.resting, false);
});

test("let go every tick from the start (karuta's voice), it rests once, and stays so", () => {
  const { context, rest, advance } = rig();
  let suspends = 0;
  const suspend = context.suspend.bind(context);
  context.suspend = () => { suspends += 1; return suspend(); };
  for (let i = 0; i < 30; i += 1) { rest.hold(false); advance(1000); }
  assert.equal(context.state, "suspended");
  assert.equal(suspends, 1);
});

test("its timers are called as plain functions, as a browser's setTimeout needs", () => {
  const calls = [];
  function setTimer() { calls.push(this); return 1; }
  function clearTimer() { calls.push(this); }
  const context = { state: "running", currentTime: 0 };
  const rest = new AudioRest(context, { setTimer, clearTimer });
  rest.busy(1);
  rest.busy(2);
  assert.deepEqual(calls, [undefined, undefined, undefined]);
});
