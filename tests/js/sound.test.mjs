// node --test: sounds are off until turned on, the choice is remembered, and nothing plays
// (or throws) without Web Audio.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RECIPES, Sound, lengthOf, remember, remembered } from "../../static/js/sound.js";

const memory = () => { const m = new Map(); return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v) }; };

test("off by default, remembered per browser", () => {
  const storage = memory();
  assert.equal(remembered(storage), false);
  remember(storage, true);
  assert.equal(new Sound(storage).on, true);
  remember(storage, false);
  assert.equal(new Sound(storage).on, false);
  const broken = { getItem() { throw new Error("blocked"); }, setItem() { throw new Error("blocked"); } };
  assert.equal(remembered(broken), false);
  assert.doesNotThrow(() => remember(broken, true));
});

test("every game sound is short, and plays only when on", () => {
  for (const name of ["flip", "take", "fault", "win", "end"]) assert.ok(lengthOf(name) > 0 && lengthOf(name) < 1, name);
  for (const notes of Object.values(RECIPES)) for (const [f, , , , g] of notes) assert.ok(f > 50 && g > 0 && g <= 0.3);
  const sound = new Sound(memory());
  sound.play("flip");
  assert.deepEqual(sound.played, []);
  sound.set(true);
  sound.play("flip"); // no AudioContext in Node: recorded, silently not played
  sound.play("nonsense");
  assert.deepEqual(sound.played, ["flip"]);
});
