// node --test: the zoomed card goes to the other half of the screen, and only small cards get one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MIN_KANA_PX, needsZoom, zoomPlace } from "../../static/js/karuta/zoom.js";

test("the zoom never covers the card it shows", () => {
  assert.equal(zoomPlace({ top: 700, height: 50 }, 844), "top", "your own rows, low on the screen");
  assert.equal(zoomPlace({ top: 200, height: 50 }, 844), "bottom", "the opponent's rows");
  assert.equal(zoomPlace({ top: 400, height: 50 }, 844), "top", "just past the middle");
});

test("only cards whose kana are below the legible size are zoomed", () => {
  assert.equal(MIN_KANA_PX, 10);
  assert.equal(needsZoom(6.2), true);
  assert.equal(needsZoom(10), false);
  assert.equal(needsZoom(13.5), false);
  assert.equal(needsZoom(Number.NaN), false);
});
