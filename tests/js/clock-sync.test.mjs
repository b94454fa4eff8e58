// node --test: the server-clock estimate against a simulated link with a known offset.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ClockSync, estimate } from "../../static/js/clock-sync.js";

/** A small seeded PRNG (mulberry32): the same runs every time. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `pings` round trips over a link whose legs take up + U(0, jitterUp) and down +
 * U(0, jitterDown) ms, to a server whose clock is `offset` ms ahead of the local one. The
 * local clock is injected: it is the simulation's time. Returns the estimate's error.
 */
function simulate({ seed, pings, offset = 123456.7, up = 20, down = 20, jitterUp = 40, jitterDown = 40 }) {
  const random = rng(seed);
  let local = 1_700_000_000_000;
  const sync = new ClockSync({ now: () => local });
  for (let i = 0; i < pings; i += 1) {
    const t1 = local;
    const out = up + random() * jitterUp;
    const back = down + random() * jitterDown;
    const serverNow = Math.round(t1 + out + offset); // the server stamps whole ms
    local = t1 + out + back;
    sync.add(t1, serverNow);
    local += 1 + random() * 5; // the next ping of a burst goes when this pong is in
  }
  return { error: sync.offset - offset, sync };
}

function errors(options, trials = 500) {
  return Array.from({ length: trials }, (_, seed) => simulate({ seed: seed + 1, ...options }));
}

const within = (runs, ms) => runs.filter(({ error }) => Math.abs(error) <= ms).length / runs.length;

test("no jitter, equal legs: exact (but for the server's whole-ms stamp)", () => {
  const { error, sync } = simulate({ seed: 1, pings: 1, jitterUp: 0, jitterDown: 0 });
  assert.ok(Math.abs(error) <= 0.5, `error ${error}`);
  assert.equal(sync.delay, 40);
  assert.equal(sync.bound, 20);
});

test("symmetric jitter (20 ms each way + 0–40 ms each): within 10 ms once the window fills", () => {
  const runs = errors({ pings: 32 });
  assert.equal(within(runs, 10), 1, "every one of 500 seeded links within 10 ms after 32 pings");
  // After the connect burst alone (8 pings) most are: the test states the rate it meets.
  assert.ok(within(errors({ pings: 8 }), 10) >= 0.95);
  // The reported bound always holds: the error is half the legs' difference.
  for (const { error, sync } of runs) assert.ok(Math.abs(error) <= sync.bound + 0.5);
});

test("jitter on one leg only (queues on the uplink): the fastest samples agree, a plain mean does not", () => {
  // With jitter of the same law on both legs (the test above) a plain mean of all offsets
  // is unbiased too: the legs' differences average out. Queues are rarely that kind: when
  // one leg alone queues, a plain mean is off by half that leg's mean jitter (10 ms here),
  // while the lowest-delay samples are those where the queue happened to be empty.
  const runs = errors({ pings: 32, jitterUp: 40, jitterDown: 0 });
  assert.equal(within(runs, 10), 1);
  const plain = runs.map(({ sync, error }) => estimate(sync.samples, sync.samples.length).offset - (sync.offset - error));
  const meanPlain = plain.reduce((a, b) => a + b, 0) / plain.length;
  assert.ok(Math.abs(meanPlain - 10) < 2, `plain mean biased by ${meanPlain} ms`);
  assert.ok(within(runs.map((_, i) => ({ error: plain[i] })), 5) < 0.05);
});

test("a constant asymmetry is invisible to round trips: off by half the difference, inside the bound", () => {
  // 20 ms up, 200 ms down: the estimate reads the server 90 ms behind where it is. This is
  // the limit of any NTP-style estimate; the bound (delay / 2) says how far it could be.
  const { error, sync } = simulate({ seed: 7, pings: 32, up: 20, down: 200, jitterUp: 0, jitterDown: 0 });
  assert.ok(Math.abs(error - -90) <= 0.5, `error ${error}`);
  assert.ok(Math.abs(error) <= sync.bound);
  assert.equal(sync.bound, 110);
});

test("the window follows a changed offset; old samples are dropped", () => {
  let local = 0;
  const sync = new ClockSync({ now: () => local, window: 4, best: 1 });
  for (const offset of [500, 500, 500, 500, 900, 900, 900, 900]) {
    const t1 = local;
    local += 30;
    sync.add(t1, t1 + 15 + offset);
  }
  assert.equal(sync.samples.length, 4);
  assert.equal(sync.offset, 900);
  assert.equal(sync.serverNow(1000), 1900);
});

test("unusable pongs are ignored; ping fields echo the last pong and how long it was held", () => {
  let local = 1000;
  const sync = new ClockSync({ now: () => local });
  assert.deepEqual(sync.pingFields(), {});
  assert.equal(sync.offset, 0);
  assert.equal(sync.ready, false);
  assert.equal(sync.add(1010, 5000, 1000), null); // received before it was sent
  assert.equal(sync.add(0, 5000, 20000), null); // a 20 s round trip
  assert.equal(sync.add(NaN, 5000), null);
  assert.equal(sync.ready, false);
  sync.add(960, 5000);
  assert.equal(sync.ready, true);
  local = 1250;
  assert.deepEqual(sync.pingFields(), { echo: 5000, held: 250 });
  assert.deepEqual(sync.pingFields(1000 + 61000), {}); // held too long to be of use
});
