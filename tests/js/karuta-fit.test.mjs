// node --test: the phone board's non-card height, measured, does not move with the cards' size.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chromeHeight } from "../../static/js/karuta/fit.js";

test("the chrome is the span in view less the cards in it", () => {
  // A reader and piles above a 500 px field that ends 700 px down, 6 px kept under it.
  assert.equal(chromeHeight({ bottom: 700, below: 6, cardHeights: [500] }), 206);
});

test("it does not change when the cards are resized, only when the rest does", () => {
  const small = chromeHeight({ bottom: 640, below: 6, cardHeights: [60, 60, 60, 60, 60, 60] });
  const large = chromeHeight({ bottom: 760, below: 6, cardHeights: [80, 80, 80, 80, 80, 80] });
  assert.equal(small, large);
  const taller = chromeHeight({ bottom: 700, below: 6, cardHeights: [60, 60, 60, 60, 60, 60] });
  assert.equal(taller - small, 60); // a result line added 60 px above the field
});

test("a fractional height rounds up, so the last row is never cut by a pixel", () => {
  assert.equal(chromeHeight({ bottom: 700.2, below: 0, cardHeights: [500] }), 201);
  assert.equal(chromeHeight({ bottom: 10, below: 0, cardHeights: [500] }), 0);
});
