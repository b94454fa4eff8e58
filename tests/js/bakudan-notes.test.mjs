import assert from "node:assert/strict";
import { test } from "node:test";

import { fromTop, notesLayout } from "../../static/js/bakudan/notes.js";

const note = (position, kind) => ({ position, card: { id: `x${position}`, kind } });

test("three slots, unknown when nothing is noted", () => {
  const { slots, bomb, deeper } = notesLayout([], 10);
  assert.deepEqual(slots.map((s) => s.state), ["unknown", "unknown", "unknown"]);
  assert.deepEqual(slots.map((s) => s.position), [0, 1, 2]);
  assert.equal(bomb, null);
  assert.deepEqual(deeper, []);
  assert.deepEqual(notesLayout(null, 10).slots.map((s) => s.state), ["unknown", "unknown", "unknown"]);
});

test("peeked cards fill their slots by position, out of order too", () => {
  const { slots } = notesLayout([note(2, "blank"), note(0, "bomb"), note(1, "peek")], 10);
  assert.deepEqual(slots.map((s) => [s.state, s.kind]), [["known", "bomb"], ["known", "peek"], ["known", "blank"]]);
});

test("slots below the bottom of a short deck read 'no card'", () => {
  const { slots } = notesLayout([note(0, "dodge")], 2);
  assert.deepEqual(slots.map((s) => s.state), ["known", "unknown", "none"]);
});

test("the seat's own bomb note is reported wherever it sits", () => {
  const deep = notesLayout([note(7, "bomb")], 12);
  assert.deepEqual(deep.bomb, { position: 7 });
  assert.deepEqual(deep.deeper, [{ position: 7, kind: "bomb" }]);
  assert.deepEqual(deep.slots.map((s) => s.state), ["unknown", "unknown", "unknown"]);
  const onTop = notesLayout([note(0, "bomb"), note(1, "shield")], 12);
  assert.deepEqual(onTop.bomb, { position: 0 });
  assert.equal(onTop.slots[0].kind, "bomb");
});

test("malformed notes are ignored, and positions count from 1 for people", () => {
  const { slots } = notesLayout([{ position: "1", card: { kind: "peek" } }, { position: 1 }, null], 5);
  assert.deepEqual(slots.map((s) => s.state), ["unknown", "unknown", "unknown"]);
  assert.equal(fromTop(0), 1);
});
