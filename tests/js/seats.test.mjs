// node --test: seat colours and names come from the room info, for 2–5 seats.
import assert from "node:assert/strict";
import { test } from "node:test";

import { seatColour, seatName } from "../../static/js/seats.js";

const names = { red: "赤", blue: "青", green: "緑", yellow: "黄", purple: "紫" };
const room = (colours) => ({ seats: colours.map((colour, index) => ({ index, colour })) });

test("a five-seat table names every seat by the colour the server gave it", () => {
  const match = room(["red", "blue", "green", "yellow", "purple"]);
  assert.deepEqual([0, 1, 2, 3, 4].map((s) => seatName(names, match, s)), ["赤", "青", "緑", "黄", "紫"]);
  assert.equal(seatColour(match, 4), "purple");
});

test("colours follow the room, not the seat number", () => {
  const match = room(["blue", "purple"]);
  assert.equal(seatName(names, match, 1), "紫");
  assert.equal(seatColour(match, 0), "blue");
});

test("before the room is known, or past its seats, a seat is its number", () => {
  assert.equal(seatName(names, null, 2), "2");
  assert.equal(seatName(names, room(["red"]), 3), "3");
  assert.equal(seatColour(undefined, 0), null);
});

test("a seat label says whose seat it is and the CPU's level, from one place", async () => {
  const { seatLabel, yourSeats } = await import("../../static/js/seats.js");
  const S = { colours: names, you: "you", cpu: "CPU", levels: { easy: "Easy" } };
  const match = { mode: "cpu", seats: [
    { index: 0, colour: "red", yours: true, kind: "human" },
    { index: 1, colour: "blue", kind: "cpu", cpu_level: "easy" },
  ] };
  assert.equal(seatLabel(S, match, 0), "赤 (you)");
  assert.equal(seatLabel(S, match, 1), "青 (CPU Easy)");
  assert.equal(seatLabel(S, { ...match, mode: "hotseat" }, 0), "赤");
  assert.deepEqual(yourSeats(match), [0]);
  assert.deepEqual(yourSeats(null), []);
});

test("a signed-in player's seat is named by their handle, as they wrote it; a guest's by its colour", async () => {
  const { seatLabel } = await import("../../static/js/seats.js");
  const S = { colours: names, you: "you", cpu: "CPU", levels: {} };
  const match = { mode: "friend", seats: [
    { index: 0, colour: "red", handle: "yuki", yours: true, kind: "human" },
    { index: 1, colour: "blue", handle: null, kind: "human" },
  ] };
  assert.equal(seatName(names, match, 0), "yuki");
  assert.equal(seatName(names, match, 1), "青");
  assert.equal(seatLabel(S, match, 0), "yuki (you)");
});
