// node --test: how often the event page asks for news (static/js/events/poll.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { pollDelay } from "../../static/js/events/poll.js";

test("asks every base interval while answers come", () => {
  assert.equal(pollDelay(3000, 0, false), 3000);
});

test("backs off after failures, capped at a minute", () => {
  assert.equal(pollDelay(3000, 1, false), 6000);
  assert.equal(pollDelay(3000, 3, false), 24000);
  assert.equal(pollDelay(3000, 40, false), 60000);
});

test("a hidden tab asks four times less often", () => {
  assert.equal(pollDelay(3000, 0, true), 12000);
  assert.equal(pollDelay(3000, 5, true), 60000);
});
