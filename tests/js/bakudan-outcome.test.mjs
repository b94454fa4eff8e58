import assert from "node:assert/strict";
import { test } from "node:test";

import { numberLink, outcome, placesOf } from "../../static/js/bakudan/outcome.js";
import { handoffSeat, seatRows } from "../../static/js/bakudan/seats.js";
import { match, seatView } from "./bakudan-fixtures.mjs";

test("nothing to show while the game is on for this page", () => {
  assert.equal(outcome(seatView(), match("cpu"), [0]), null);
  assert.equal(outcome(null, match("cpu"), [0]), null);
});

test("vs CPU: out means over for you, even while the CPUs play on", () => {
  const view = seatView({ to_act: 1, legal: [], hand: [] });
  view.seats[0] = { ...view.seats[0], alive: false, place: 3 };
  const result = outcome(view, match("cpu"), [0]);
  assert.equal(result.meOut, true);
  assert.equal(result.final, false);
  assert.equal(result.winner, null);
  assert.equal(result.telemetry, "loss");
});

test("vs CPU fast-forward: the surviving CPU is the winner", () => {
  const view = seatView({ over: true, winner: 2, places: [3, 2, 1], to_act: null, legal: [] });
  view.seats = view.seats.map((s, i) => ({ ...s, alive: i === 2, place: [3, 2, 1][i] }));
  const result = outcome(view, match("cpu"), [0]);
  assert.deepEqual([result.final, result.meOut, result.winner], [true, true, 2]);
  assert.deepEqual(result.order.map((o) => o.seat), [2, 1, 0]);
});

test("a win, a hot-seat game and a spectator", () => {
  const view = seatView({ over: true, winner: 0, places: [1, 3, 2], legal: [] });
  assert.equal(outcome(view, match("cpu"), [0]).telemetry, "win");
  assert.equal(outcome(view, match("hotseat", 3, [0, 1, 2]), [0, 1, 2]).telemetry, "complete");
  assert.equal(outcome(view, match("friend", 3, []), []).telemetry, null);
  assert.equal(outcome(view, match("friend", 3, [1]), [1]).telemetry, "loss");
});

test("places: by seat index, missing places (still in) last, winner from places if not given", () => {
  const view = seatView({ places: null });
  view.seats = view.seats.map((s, i) => ({ ...s, place: [null, 3, null][i] }));
  assert.deepEqual(placesOf(view).map((o) => [o.seat, o.place]), [[1, 3], [0, null], [2, null]]);
  const over = seatView({ over: true, winner: null, places: [2, 1, 3] });
  assert.equal(outcome(over, match("friend", 3, [0]), [0]).winner, 1);
});

test("the game link opens the menu with the number, in the page's language", () => {
  assert.equal(numberLink("/en/bakudan/", "A3N-1K", "https://example.org"), "https://example.org/en/bakudan/?number=A3N-1K");
  assert.equal(numberLink("/bakudan/", "A 3", "http://x.test"), "http://x.test/bakudan/?number=A+3");
});

test("seat rows: colour and kind from the room, counts from the view, 2–5 seats", () => {
  const rows = seatRows(seatView(), match("cpu"), (c) => c.toUpperCase());
  assert.deepEqual(rows.map((r) => [r.colour, r.name, r.cpu, r.handCount, r.shield, r.toAct]), [
    ["red", "RED", false, 5, false, true], ["blue", "BLUE", true, 4, true, false], ["green", "GREEN", true, 2, false, false],
  ]);
  const five = match("hotseat", 5, [0, 1, 2, 3, 4]);
  five.seats[4].colour = "purple";
  assert.equal(seatRows(null, five, (c) => c).at(-1).colour, "purple");
  const custom = match("friend", 2);
  custom.seats[1].colour = "green"; // whatever the room says, not a fixed list
  assert.equal(seatRows(null, custom, (c) => c)[1].colour, "green");
});

test("handoff seat only from a well-formed handoff", () => {
  assert.equal(handoffSeat({ handoff: { seat: 2 } }), 2);
  assert.equal(handoffSeat({ handoff: null }), null);
  assert.equal(handoffSeat({ handoff: { seat: "2" } }), null);
  assert.equal(handoffSeat({}), null);
});
