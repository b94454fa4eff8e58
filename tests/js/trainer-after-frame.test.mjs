// node --test: the drill's work after the frame (static/js/trainer/after-frame.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { afterFrame } from "../../static/js/trainer/after-frame.js";

function fakeLoop() {
  const frames = [];
  const tasks = [];
  return {
    frame: (fn) => frames.push(fn),
    task: (fn) => tasks.push(fn),
    drawFrame: () => frames.splice(0).forEach((fn) => fn()),
    runTasks: () => tasks.splice(0).forEach((fn) => fn()),
    frames,
  };
}

test("jobs wait for the frame, then a task after it, and run in order", () => {
  const loop = fakeLoop();
  const later = afterFrame(loop);
  const ran = [];
  later.add(() => ran.push(1));
  later.add(() => ran.push(2));
  assert.equal(loop.frames.length, 1, "one frame asked for, however many jobs");
  assert.deepEqual(ran, []);
  loop.drawFrame();
  assert.deepEqual(ran, [], "not inside the frame's callbacks: after the frame is drawn");
  loop.runTasks();
  assert.deepEqual(ran, [1, 2]);
  later.add(() => ran.push(3));
  loop.drawFrame();
  loop.runTasks();
  assert.deepEqual(ran, [1, 2, 3]);
});

test("flush runs what is left at once, and the frame's task then runs nothing twice", () => {
  const loop = fakeLoop();
  const later = afterFrame(loop);
  const ran = [];
  later.add(() => ran.push("a"));
  later.flush();
  assert.deepEqual(ran, ["a"]);
  loop.drawFrame();
  loop.runTasks();
  assert.deepEqual(ran, ["a"]);
});
