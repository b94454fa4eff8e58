import assert from "node:assert/strict";
import { test } from "node:test";

import { turnText } from "../../static/js/bakudan/turn.js";
import { match, seatView } from "./bakudan-fixtures.mjs";

const S = {
  waiting: "waiting", over: "over", youAreOut: "out", placeTurn: "place", yourTurn: "yours",
  passTo: "pass to %(seat)s", hotseatTurn: "%(seat)s plays", cpuTurn: "%(seat)s (CPU)", seatTurn: "%(seat)s",
};
const names = ["Red", "Blue", "Green"];
const base = { S, seatName: (seat) => names[seat], isCpu: (seat) => seat > 0 };

test("the blind screen names the seat the device goes to, before anything else", () => {
  const text = turnText({ ...base, match: match("hotseat", 3, [0, 1, 2]), view: null, phase: "none", blindSeat: 2 });
  assert.equal(text, "pass to Green");
});

test("your turn, a hot-seat player's turn, placing a bomb, out", () => {
  const view = seatView();
  assert.equal(turnText({ ...base, match: match("cpu"), view, phase: "act" }), "yours");
  assert.equal(turnText({ ...base, match: match("hotseat", 3, [0, 1, 2]), view, phase: "act" }), "Red plays");
  assert.equal(turnText({ ...base, match: match("cpu"), view, phase: "place" }), "place");
  assert.equal(turnText({ ...base, match: match("cpu"), view: seatView({ to_act: 1 }), phase: "out" }), "out");
});

test("others' turns: a CPU is called a CPU", () => {
  assert.equal(turnText({ ...base, match: match("cpu"), view: seatView({ to_act: 1 }), phase: "wait" }), "Blue (CPU)");
  const friends = { ...base, isCpu: () => false };
  assert.equal(turnText({ ...friends, match: match("friend"), view: seatView({ to_act: 2 }), phase: "wait" }), "Green");
});

test("waiting room and the end", () => {
  assert.equal(turnText({ ...base, match: { ...match("friend"), status: "waiting" }, view: null, phase: "none" }), "waiting");
  assert.equal(turnText({ ...base, match: match("cpu"), view: seatView({ over: true }), phase: "over" }), "over");
  assert.equal(turnText({ ...base, match: null, view: null, phase: "none" }), "");
});
