// node --test: an absent friend's mark and countdown by their seat (static/js/away.js):
// which seats are away, the countdown's words on the server's clock, and the marks a board
// view puts in a seat's element on each render, ticking between frames.
import assert from "node:assert/strict";
import { test } from "node:test";

import { AwayMarks, awaySeats, awayState, countdownText, idleSeat, secondsLeft } from "../../static/js/away.js";

const seat = (index, extra = {}) => ({ index, kind: "human", taken: true, connected: true, cpu_at: null, ...extra });
const room = (seats, extra = {}) => ({ mode: "friend", status: "playing", on_leave: "cpu", seats, ...extra });
const S = {
  away: "connection lost",
  markCpuSoon: "the CPU plays in %(s)s s",
  markCpuNow: "the CPU is playing",
  markOutSoon: "out in %(s)s s",
  markOutNow: "out of the game",
};

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

test("a seat's away state is read from the frame: the takeover moment, or none outside its turn", () => {
  const match = room([seat(0), seat(1, { connected: false, cpu_at: 1_000_000 }), seat(2, { connected: false })]);
  assert.equal(awayState(match, 0), null);
  assert.deepEqual(awayState(match, 1), { at: 1_000_000, out: false });
  assert.deepEqual(awayState(match, 2), { at: null, out: false });
  assert.deepEqual(awayState({ ...match, on_leave: "out" }, 1), { at: 1_000_000, out: true });
});

test("the countdown rounds up to whole seconds and says what happens once due", () => {
  assert.equal(secondsLeft(45_000, 0), 45);
  assert.equal(secondsLeft(45_000, 44_001), 1);
  assert.equal(secondsLeft(45_000, 45_000), 0);
  assert.equal(secondsLeft(45_000, 99_000), 0);
  const cpu = { at: 45_000, out: false };
  assert.equal(countdownText(S, cpu, 0), "The CPU plays in 45 s");
  assert.equal(countdownText(S, cpu, 33_500), "The CPU plays in 12 s");
  assert.equal(countdownText(S, cpu, 45_000), "The CPU is playing");
  assert.equal(countdownText(S, { at: 45_000, out: true }, 40_000), "Out in 5 s");
  assert.equal(countdownText(S, { at: 45_000, out: true }, 46_000), "Out of the game");
  assert.equal(countdownText(S, { at: null, out: false }, 0), "");
  assert.equal(countdownText(S, null, 0), "");
});

// A document just big enough for the marks: elements, and the countdowns "on the page"
// (those the board put in a seat's element and has not redrawn away).
function fakeDoc() {
  const page = [];
  return {
    page,
    createElement: (tag) => ({ tag, className: "", dataset: {}, textContent: "" }),
    querySelectorAll: (sel) => (sel === "[data-away-countdown]" ? page.slice() : []),
  };
}

test("the marks are drawn from the seat in the frame: none while here, the mark, then the countdown", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const doc = fakeDoc();
  let now = 10_000;
  const away = new AwayMarks(S, () => now, doc);
  assert.deepEqual(away.marks(room([seat(0), seat(1)]), 1), []);
  // Away but not their turn (a turn-based game): the mark alone, no countdown, no tick.
  const [mark] = away.marks(room([seat(0), seat(1, { connected: false })]), 1);
  assert.equal(mark.textContent, "Connection lost");
  assert.equal(mark.dataset.awayMark, 1);
  assert.equal(away.timer, null);
  // Their turn: the countdown to the frame's cpu_at on the server's clock.
  const marks = away.marks(room([seat(0), seat(1, { connected: false, cpu_at: 55_000 })]), 1);
  assert.deepEqual(marks.map((m) => m.className), ["away-mark", "away-countdown"]);
  assert.equal(marks[1].dataset.awayCountdown, 1);
  assert.equal(marks[1].textContent, "The CPU plays in 45 s");
  away.stop();
});

test("a redraw at a later time shows the same deadline: the seconds come from the clock, not the frame's arrival", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const doc = fakeDoc();
  let now = 10_000;
  const away = new AwayMarks(S, () => now, doc);
  const match = room([seat(0), seat(1, { connected: false, cpu_at: 55_000 })]);
  assert.equal(away.marks(match, 1)[1].textContent, "The CPU plays in 45 s");
  now = 40_200; // the same frame drawn again 30 s later (a held frame, a room frame)
  assert.equal(away.marks(match, 1)[1].textContent, "The CPU plays in 15 s");
  away.stop();
});

test("between frames the countdowns on the page tick each second, and the tick stops when none is left", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const doc = fakeDoc();
  let now = 10_000;
  const away = new AwayMarks(S, () => now, doc);
  const [, countdown] = away.marks(room([seat(0), seat(1, { connected: false, cpu_at: 13_000 })]), 1);
  doc.page.push(countdown);
  assert.notEqual(away.timer, null);
  for (const [at, text] of [[11_000, "The CPU plays in 2 s"], [12_000, "The CPU plays in 1 s"], [13_000, "The CPU is playing"]]) {
    now = at;
    t.mock.timers.tick(1000);
    assert.equal(countdown.textContent, text);
  }
  doc.page.length = 0; // the friend is back: the board redrew their seat without marks
  t.mock.timers.tick(1000);
  assert.equal(away.timer, null);
});

test("where leavers are out, the countdown says when they are out", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const doc = fakeDoc();
  const away = new AwayMarks(S, () => 0, doc);
  const [, countdown] = away.marks(room([seat(0), seat(1, { connected: false, cpu_at: 9_500 })], { on_leave: "out" }), 1);
  assert.equal(countdown.textContent, "Out in 10 s");
  doc.page.push(countdown);
  away.now = () => 10_000;
  t.mock.timers.tick(1000);
  assert.equal(countdown.textContent, "Out of the game");
  away.stop();
});

test("a present person to act with a takeover moment is counted down to (a rated game's idle turn)", () => {
  const idle = seat(1, { cpu_at: 90_000 });
  assert.equal(idleSeat(room([seat(0), idle], { to_act: [1] })), idle);
  // Not while it is another's turn, without a moment (an unrated room), for an away seat
  // (the away notice counts that one), a CPU, or once the game is over.
  assert.equal(idleSeat(room([seat(0), idle], { to_act: [0] })), null);
  assert.equal(idleSeat(room([seat(0), seat(1)], { to_act: [1] })), null);
  assert.equal(idleSeat(room([seat(0), seat(1, { cpu_at: 9, connected: false })], { to_act: [1] })), null);
  assert.equal(idleSeat(room([seat(0), seat(1, { cpu_at: 9, kind: "cpu" })], { to_act: [1] })), null);
  assert.equal(idleSeat(room([seat(0), idle], { to_act: [1], status: "finished" })), null);
  assert.equal(idleSeat(null), null);
});
