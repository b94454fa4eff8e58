// node --test: which seats the board marks as away (static/js/away.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { awaySeats } from "../../static/js/away.js";

const seat = (index, extra = {}) => ({ index, kind: "human", taken: true, connected: true, ...extra });
const room = (seats, extra = {}) => ({ mode: "friend", status: "playing", seats, ...extra });

test("a person whose connection is lost in a friend room being played is away", () => {
  assert.deepEqual(awaySeats(room([seat(0), seat(1, { connected: false }), seat(2, { connected: false })])), [1, 2]);
});

test("CPUs, empty seats and present people are never away", () => {
  const seats = [seat(0), seat(1, { kind: "cpu", connected: false }), seat(2, { taken: false, connected: false })];
  assert.deepEqual(awaySeats(room(seats)), []);
});

test("only while a friend room plays: not before the start, after the end, or in other modes", () => {
  const seats = [seat(0), seat(1, { connected: false })];
  for (const extra of [{ status: "waiting" }, { status: "finished" }, { mode: "cpu" }, { mode: "hotseat" }]) {
    assert.deepEqual(awaySeats(room(seats, extra)), [], JSON.stringify(extra));
  }
  assert.deepEqual(awaySeats(null), []);
});
