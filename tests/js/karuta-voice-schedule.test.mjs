// node --test: the reading voice's scheduler — clips placed on the corrected server clock,
// gapless seams, the latency allowed for, the tap calibration and the remembered settings.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CALIBRATION, DEFAULT_PREFS, HIDDEN_LATENCY_MS, SAFETY_S, SLIDE_MAX_S, anchorFrom, calibrate, heardAt,
  latencyMs, loadPrefs, mayRest, pending, place, presentationDelay, quantile, savePrefs, seams, slideFor, toCtx,
  toServer,
} from "../../static/js/karuta/voice-schedule.js";

// A reading's clips as the server sends them: the upper verse split where poems branch,
// each clip abutting the next (start + duration = the next start).
const clips = [
  { id: "a", start: 0, duration: 200, onsets: [0] },
  { id: "b", start: 200, duration: 800, onsets: [0, 200, 400, 600] },
  { id: "c", start: 1000, duration: 5437.5, onsets: [0, 200, 900] },
];

function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

test("the anchor is the freshest sample: the one whose audio clock lags least", () => {
  // currentTime moves in 10 ms steps: read between steps it is up to 10 ms behind.
  const truth = (server) => 5 + (server - 1e12) / 1000; // ctx s at server ms
  const samples = [0, 3, 7, 9.9, 14].map((d) => {
    const server = 1e12 + 1000 + d;
    const stepped = Math.floor(truth(server) * 100) / 100;
    return { ctx: stepped, server };
  });
  const anchor = anchorFrom(samples);
  assert.ok(Math.abs(toCtx(anchor, 1e12 + 2000) - truth(1e12 + 2000)) < 0.0002);
  assert.equal(anchorFrom([]), null);
  assert.equal(toServer(anchor, toCtx(anchor, 1e12 + 1234)), 1e12 + 1234);
});

test("each clip is due at base + start on the corrected clock, started the latency early", () => {
  const anchor = { ctx: 10, server: 1_700_000_000_000 };
  const base = anchor.server + 3000; // the reading's t = 0, 3 s after the anchor
  const p = place(clips[1], { base, anchor, latency: 40, nowCtx: 10.5 });
  assert.equal(p.offset, 0);
  assert.ok(Math.abs(p.due - (10 + 3 + 0.2)) < 1e-9);
  assert.ok(Math.abs(p.when - (p.due - 0.04)) < 1e-9);
  // The shown-late delay moves the sound with the picture.
  const later = place(clips[1], { base, anchor, latency: 40, delay: 60, nowCtx: 10.5 });
  assert.ok(Math.abs(later.when - p.when - 0.06) < 1e-9);
});

test("a clip that arrives late starts now, into its buffer, so what follows stays on time", () => {
  const anchor = { ctx: 0, server: 0 };
  const p = place(clips[2], { base: 0, anchor, latency: 0, nowCtx: 1.25 });
  assert.ok(Math.abs(p.when - (1.25 + SAFETY_S)) < 1e-9);
  assert.ok(Math.abs(p.when - p.offset - 1.0) < 1e-9); // its virtual start is still 1.0 s
  assert.equal(place(clips[0], { base: 0, anchor, latency: 0, nowCtx: 0.3 }), null); // all past
});

test("a late preamble clip starts whole if it still ends before the next; verses never slide", () => {
  const after = [ // a later reading: the previous lower verse, 3 s of pause, the upper verse
    { id: "prev", part: "shimo", start: -9000, duration: 4000, onsets: [0] },
    { id: "k", part: "kami", start: 0, duration: 900, onsets: [0] },
  ];
  const first = [ // the first competitive reading: the 序歌, straight into its lower verse
    { id: "joka", part: "joka", start: -8000, duration: 5000, onsets: [0] },
    { id: "jshimo", part: "joka_shimo", start: -3000, duration: 2900, onsets: [0] },
    { id: "k", part: "kami", start: 0, duration: 900, onsets: [0] },
  ];
  assert.equal(slideFor(after[0], after), SLIDE_MAX_S);
  assert.equal(slideFor(first[0], first), 0);
  assert.ok(Math.abs(slideFor(first[1], first) - 0.1) < 1e-9);
  assert.equal(slideFor(after[1], after), 0);
  const reading = after;
  const anchor = { ctx: 0, server: 0 };
  const slid = place(reading[0], { base: 9000, anchor, latency: 0, nowCtx: 0.08, slideS: 0.5 });
  assert.equal(slid.offset, 0);
  assert.ok(Math.abs(slid.slid - 0.08 - SAFETY_S) < 1e-9);
  const cut = place(reading[0], { base: 9000, anchor, latency: 0, nowCtx: 0.7, slideS: 0.5 });
  assert.ok(cut.offset > 0.7 && cut.slid === 0);
});

test("seams are gapless on any anchor, latency and delay (500 seeded readings)", () => {
  const rand = seeded(23);
  for (let n = 0; n < 500; n += 1) {
    const anchor = { ctx: rand() * 1000, server: 1.7e12 + rand() * 1e9 };
    const base = anchor.server + rand() * 20000 - 5000;
    const latency = rand() * 250;
    const delay = presentationDelay(latency);
    const nowCtx = toCtx(anchor, base) - 0.5 + rand() * 1.2; // sometimes the first clip is late
    const placed = clips
      .map((c) => ({ c, p: place(c, { base, anchor, latency, delay, nowCtx }) }))
      .filter(({ p }) => p)
      .map(({ c, p }) => ({ ...p, durationS: c.duration / 1000 }));
    for (const gap of seams(placed)) assert.ok(Math.abs(gap) < 1e-6, `seam ${gap} ms`);
    for (const p of placed) assert.ok(p.when >= nowCtx + SAFETY_S - 1e-9);
  }
});

test("the latency: outputLatency when given, else baseLatency, plus the calibration", () => {
  assert.equal(latencyMs({ outputLatency: 0.042, baseLatency: 0.01 }), 42);
  assert.equal(latencyMs({ outputLatency: 0, baseLatency: 0.01 }), 10);
  assert.equal(latencyMs({ baseLatency: 0.01 }, 150), 160);
  assert.equal(latencyMs({}, -20), 0);
  assert.equal(presentationDelay(40), 0);
  assert.equal(presentationDelay(HIDDEN_LATENCY_MS + 90), 90); // Bluetooth: both shown late
});

test("calibration: the median lateness of taps matched to beats", () => {
  const beats = Array.from({ length: CALIBRATION.beats }, (_, i) => 1000 + i * CALIBRATION.intervalMs);
  const taps = beats.map((b, i) => b + 120 + [5, -8, 3, 0, -4, 9, -2, 1][i]);
  const got = calibrate(beats, taps);
  assert.equal(got.offsetMs, 121);
  assert.equal(got.taps, 8);
  assert.ok(got.spreadMs <= 10);
  // A stray tap far from any beat is ignored; early taps give a negative correction.
  assert.equal(calibrate(beats, [...beats.map((b) => b - 30), 1000 + 300 * 1.5 + 5000]).offsetMs, -30);
});

test("calibration refuses too few taps or taps all over the place", () => {
  const beats = [0, 600, 1200, 1800, 2400, 3000];
  assert.equal(calibrate(beats, [10, 610, 1210]), null);
  assert.equal(calibrate(beats, [0, 700, 1100, 1900, 2280, 3150]), null); // ±100 ms: no figure
  assert.equal(calibrate(beats, beats.map((b) => b + 290)).offsetMs, 290);
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
});

test("heard times of each kana, and the clips still to place", () => {
  assert.deepEqual(heardAt(clips[1], 1000), [1200, 1400, 1600, 1800]);
  assert.deepEqual(heardAt(clips[0], 1000, 50), [1050]);
  assert.deepEqual(pending(clips, new Set(["a"])).map((c) => c.id), ["b", "c"]);
  assert.deepEqual(pending(undefined, new Set()), []);
});

test("the settings are remembered per browser and checked when read back", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.deepEqual(loadPrefs(storage), DEFAULT_PREFS);
  savePrefs(storage, { on: false, volume: 0.4, calibrationMs: 80 });
  assert.deepEqual(loadPrefs(storage), { on: false, volume: 0.4, calibrationMs: 80 });
  store.set("hyakunin.karuta.voice", '{"on": "yes", "volume": 7, "calibrationMs": 9999}');
  assert.deepEqual(loadPrefs(storage), { on: true, volume: 1, calibrationMs: CALIBRATION.max });
  store.set("hyakunin.karuta.voice", "not json");
  assert.deepEqual(loadPrefs(storage), DEFAULT_PREFS);
  const broken = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
  assert.deepEqual(loadPrefs(broken), DEFAULT_PREFS);
  savePrefs(broken, DEFAULT_PREFS); // does not throw
});

test("the voice's audio rests only where no reading can begin before this player acts", () => {
  const view = (phase, toAct) => ({ phase, to_act: toAct });
  assert.equal(mayRest(null, null), true, "a friend room still waiting: no game yet");
  assert.equal(mayRest(view("over", []), 0), true);
  assert.equal(mayRest(view("reading", [0, 1]), 0, { ended: true }), true, "resigned");
  assert.equal(mayRest(view("reading", []), 0), false);
  assert.equal(mayRest(view("reading", [0]), 0), false);
  // Memorising: until this player says ready (the gate then wakes it), not after.
  assert.equal(mayRest(view("memorise", [0, 1]), 0), true);
  assert.equal(mayRest(view("memorise", [0, 1]), 0, { readyWanted: true }), false);
  assert.equal(mayRest(view("memorise", [1]), 0), false, "ready: the friend may start it any time");
  assert.equal(mayRest(view("memorise", [0]), null), false, "a spectator waits on others");
  // Sending: this player's choice (their key wakes it), not another's.
  assert.equal(mayRest(view("send", [0]), 0), true);
  assert.equal(mayRest(view("send", [1]), 0), false);
});
