// node --test: the swap targets a friend room's creator is offered (genpei's teams).
import assert from "node:assert/strict";
import { test } from "node:test";

import { groupOf, swapTargets } from "../../static/js/seat-groups.js";

test("a seat may be exchanged only with the seats of the other team", () => {
  const groups = [[0, 1], [2, 3]];
  assert.deepEqual(swapTargets(groups, 1), [2, 3]);
  assert.deepEqual(swapTargets(groups, 3), [0, 1]);
  assert.deepEqual(swapTargets(groups, 7), []);
  assert.deepEqual(swapTargets([], 0), []);
  assert.equal(groupOf(groups, 2), 1);
  assert.equal(groupOf(undefined, 2), -1);
});
