// node --test: a game's start and end are reported once per match in a tab, by players only.
import assert from "node:assert/strict";
import { test } from "node:test";

import { GameReport, cpuLevel, modeLabel } from "../../static/js/game-report.js";

const memory = () => { const m = new Map(); return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v) }; };
const match = (extra = {}) => ({ mode: "cpu", status: "playing", seats: [{ kind: "human" }, { kind: "cpu", cpu_level: "chukyu" }], ...extra });

function report(storage = memory(), t = { now: 1000 }) {
  const sent = [];
  const send = { gameStart: (...a) => sent.push(["start", ...a]), gameEnd: (...a) => sent.push(["end", ...a]) };
  const r = new GameReport({ game: "bakudan", config: { match: "m1", telemetry_settings: { players: 3 } }, send, storage, now: () => t.now });
  return { r, sent, t };
}

test("a player's game: one start, one end with its moves and duration", () => {
  const { r, sent, t } = report();
  r.seen(match({ status: "waiting" }), true);
  assert.equal(sent.length, 0, "not started yet");
  r.seen(match(), true);
  r.seen(match(), true);
  t.now = 61_000;
  r.end(match(), "win", true, 12);
  r.end(match(), "win", true, 12);
  assert.deepEqual(sent, [
    ["start", "cpu", { game: "bakudan", cpuLevel: "chukyu", settings: { players: 3 } }],
    ["end", "cpu", "win", { game: "bakudan", cpuLevel: "chukyu", settings: { players: 3 }, moves: 12, durationMs: 60_000 }],
  ]);
});

test("a spectator reports nothing", () => {
  const { r, sent } = report();
  r.seen(match(), false);
  r.end(match(), "loss", false, 3);
  assert.deepEqual(sent, []);
});

test("a reload of the same tab does not report the game again", () => {
  const tab = memory();
  const first = report(tab);
  first.r.seen(match(), true);
  first.r.end(match(), "loss", true, 5);
  const reloaded = report(tab);
  reloaded.r.seen(match(), true);
  reloaded.r.end(match(), "loss", true, 5);
  assert.equal(first.sent.length, 2);
  assert.deepEqual(reloaded.sent, []);
});

test("the CPU level and the mode label", () => {
  assert.equal(cpuLevel(match()), "chukyu");
  assert.equal(cpuLevel({ seats: [{ kind: "human" }] }), undefined);
  assert.equal(cpuLevel(null), undefined);
  assert.equal(modeLabel({ cpu: "vs CPU" }, "cpu"), "(vs CPU)");
  assert.equal(modeLabel({ cpu: "vs CPU" }, "friend"), "");
});
