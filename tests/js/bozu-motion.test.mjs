// node --test: which motions and which sound a frame's events call for.
import assert from "node:assert/strict";
import { test } from "node:test";

import { motionsFor, soundFor } from "../../static/js/bozu/motion.js";

const entry = (events, texts = events.map((e) => `${e.type} text`)) => ({ events, texts });

test("a monk: the card flips, then the hand slides to the field", () => {
  const m = motionsFor([entry([
    { type: "drew", seat: 1, poem: 8, class: "monk" },
    { type: "to_field", seat: 1, cards: 5 },
  ])]);
  assert.deepEqual(m.map((x) => x.kind), ["flip", "to_field"]);
  assert.equal(m[1].cards, 5);
  assert.equal(soundFor(m, null, [0]), "fault");
});

test("a princess takes the field only when there is one; an extra draw is written on the table", () => {
  const empty = motionsFor([entry([
    { type: "drew", seat: 0, poem: 9, class: "princess" },
    { type: "took_field", seat: 0, from_field: 0, cards: 1 },
    { type: "extra_draw", seat: 0, reason: "princess" },
  ])]);
  assert.deepEqual(empty.map((x) => x.kind), ["flip", "extra"]);
  assert.equal(empty[1].text, "extra_draw text");
  const full = motionsFor([entry([{ type: "took_field", seat: 2, from_field: 7, cards: 8 }])]);
  assert.deepEqual(full, [{ kind: "took_field", seat: 2, cards: 7 }]);
  assert.equal(soundFor(full, null, [0]), "take");
});

test("skipped turns and Semimaru's others-to-field", () => {
  const m = motionsFor([entry([
    { type: "skip_next", seat: 1 },
    { type: "turn_skipped", seat: 1 },
    { type: "others_to_field", seat: 3, moved: [{ seat: 0, cards: 0 }, { seat: 1, cards: 4 }], cards: 4 },
  ])]);
  assert.deepEqual(m.map((x) => x.kind), ["skip_next", "skipped", "others_to_field"]);
  assert.deepEqual(m[2].moved, [{ seat: 1, cards: 4 }]);
});

test("the end: a win chimes only for the winner's own seats", () => {
  const result = { winners: [2], draw: false };
  assert.equal(soundFor([], result, [2]), "win");
  assert.equal(soundFor([], result, [0]), "end");
  assert.equal(soundFor([], null, [0]), null);
  assert.deepEqual(motionsFor([entry([{ type: "kept", seat: 0 }])]), []);
});
