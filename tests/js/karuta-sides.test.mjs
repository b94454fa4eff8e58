import assert from "node:assert/strict";
import { test } from "node:test";

import { halfRow, isSided, seatsOfSide, sendChooser, sideCount, sideOfSeat } from "../../static/js/karuta/sides.js";

test("competitive sides are the seats', genpei sides the teams'", () => {
  const competitive = { mode: "competitive" };
  const genpei = { mode: "genpei", teams: [0, 0, 0, 1, 1] };
  assert.equal(isSided("competitive") && isSided("genpei"), true);
  assert.equal(isSided("chirashi") || isSided("solo"), false);
  assert.equal(sideOfSeat(competitive, 1), 1);
  assert.equal(sideOfSeat(genpei, 2), 0);
  assert.equal(sideOfSeat(genpei, 3), 1);
  assert.equal(sideOfSeat(genpei, null), 0);
  assert.deepEqual(seatsOfSide(genpei, 1), [3, 4]);
  assert.deepEqual(seatsOfSide(competitive, 1), [1]);
});

test("the taker chooses a genpei send; a competitive sender chooses its own", () => {
  assert.equal(sendChooser({ from: 1, to: 0, remaining: 1, by: 4 }), 4);
  assert.equal(sendChooser({ from: 1, to: 0, remaining: 2 }), 1);
  assert.equal(sendChooser(null), null);
});

test("counts and half rows", () => {
  assert.equal(sideCount([[1, 2], [3], []]), 3);
  assert.equal(halfRow(17), 9);
  assert.equal(halfRow(0), 1);
});

test("a genpei fault shows by sides, or for any wrong card with the menu's option", async () => {
  const { faultsSoFar } = await import("../../static/js/karuta/layout.js");
  const side = (p) => (p <= 3 ? 0 : p <= 6 ? 1 : null);
  assert.equal(faultsSoFar("genpei", [4], 5, side), 0); // the read card's side
  assert.equal(faultsSoFar("genpei", [4], 5, side, true), 1); // any wrong card
  assert.equal(faultsSoFar("genpei", [1], 5, side), 1); // the wrong side
  assert.equal(faultsSoFar("genpei", [1, 4], 50, side, true), 2); // a dead card, both sides
});
