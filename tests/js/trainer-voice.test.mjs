// node --test: the trainer reads a kimariji aloud (static/js/trainer/voice.js), on a fake
// AudioContext and fetch: its clips placed end to end, cut at the deciding kana.
import assert from "node:assert/strict";
import { test } from "node:test";

import { kimarijiVoice } from "../../static/js/trainer/voice.js";

const TABLE = { 1: [["/a.mp3", 0, 208], ["/b.mp3", 200, 208], ["/c.mp3", 400, 200]], 87: [["/d.mp3", 0, 200]] };

function fakeAudio() {
  const started = [];
  const stopped = [];
  const made = [];
  class Context {
    constructor() { made.push(this); this.currentTime = 10; this.state = "running"; this.destination = {}; }
    async suspend() { this.state = "suspended"; }
    async resume() { this.state = "running"; }
    async decodeAudioData(bytes) { return { bytes }; }
    createBufferSource() {
      const source = { connect() {}, start: (...args) => started.push([source.buffer.bytes, ...args]), stop: () => stopped.push(source.buffer.bytes) };
      return source;
    }
  }
  // The rest timer (audio-rest.js), run by hand: `rest()` as if its time had come.
  const timers = { pending: null, setTimer: (fn) => { timers.pending = fn; return 1; }, clearTimer: () => { timers.pending = null; } };
  return { Context, started, stopped, made, timers, rest: () => timers.pending?.() };
}

function withFetch(fn) {
  const fetched = [];
  const saved = globalThis.fetch;
  globalThis.fetch = async (url) => { fetched.push(url); return { ok: true, arrayBuffer: async () => url }; };
  return fn(fetched).finally(() => { globalThis.fetch = saved; });
}

test("a poem's clips play end to end from one moment, the last cut at the deciding kana", () => withFetch(async (fetched) => {
  const audio = fakeAudio();
  const voice = kimarijiVoice(TABLE, { Context: audio.Context, timers: audio.timers });
  assert.equal(voice.available, true);
  assert.deepEqual(await voice.play(1), ["/a.mp3", "/b.mp3", "/c.mp3"]);
  const at = 10.03; // the context's time plus the lead
  assert.deepEqual(audio.started.map(([url, when, offset, duration]) => [url, +when.toFixed(3), offset, duration]),
    [["/a.mp3", at, 0, 0.208], ["/b.mp3", +(at + 0.2).toFixed(3), 0, 0.208], ["/c.mp3", +(at + 0.4).toFixed(3), 0, 0.2]]);
  await voice.play(1); // heard again: decoded once, fetched once
  assert.deepEqual(fetched, ["/a.mp3", "/b.mp3", "/c.mp3"]);
  assert.deepEqual(audio.stopped, ["/a.mp3", "/b.mp3", "/c.mp3"], "a new play stops the last");
}));

test("a play overtaken by the next one, or by stop, plays nothing", () => withFetch(async () => {
  const audio = fakeAudio();
  const voice = kimarijiVoice(TABLE, { Context: audio.Context, timers: audio.timers });
  const late = voice.play(1);
  const next = voice.play(87);
  assert.deepEqual(await late, []);
  assert.deepEqual(await next, ["/d.mp3"]);
  assert.deepEqual(audio.started.map(([url]) => url), ["/d.mp3"]);
  const stopped = voice.play(1);
  voice.stop();
  assert.deepEqual(await stopped, []);
}));

test("no table (the voice not built) or no Web Audio: nothing to offer", async () => {
  assert.equal(kimarijiVoice({}, { Context: fakeAudio().Context }).available, false);
  assert.equal(kimarijiVoice(TABLE, { Context: undefined }).available, false);
  assert.deepEqual(await kimarijiVoice(TABLE, { Context: undefined }).play(1), []);
});

test("preload fetches and decodes a poem's clips ahead, and plays nothing", () => withFetch(async (fetched) => {
  const audio = fakeAudio();
  const voice = kimarijiVoice(TABLE, { Context: audio.Context, timers: audio.timers });
  voice.preload(87);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(fetched, ["/d.mp3"]);
  assert.deepEqual(audio.started, []);
  assert.deepEqual(await voice.play(87), ["/d.mp3"]);
  assert.deepEqual(fetched, ["/d.mp3"], "played from what was fetched ahead");
}));

test("the context rests once the kimariji has been heard, and wakes for the next", () => withFetch(async () => {
  const audio = fakeAudio();
  const voice = kimarijiVoice(TABLE, { Context: audio.Context, timers: audio.timers });
  await voice.play(1); // placed from 10.03 s, heard until 10.63 s on the context's clock
  const [context] = audio.made;
  context.currentTime = 10.5;
  audio.rest(); // the rest time after... not yet: it is still heard
  assert.equal(context.state, "running");
  context.currentTime = 20;
  audio.rest();
  assert.equal(context.state, "suspended");
  assert.deepEqual(await voice.play(87), ["/d.mp3"]); // woken without a new gesture
  assert.equal(context.state, "running");
}));
