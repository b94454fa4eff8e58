// The reading voice on the page: the clips the server released (reading.voice), played with
// Web Audio at the moment each is due on the corrected server clock (voice-schedule.js),
// through one gain (the volume). Also: the one "start audio" gesture, the voice switch and
// volume, the latency note and the "tap with the beat" calibration (remembered per
// browser). The voice is a bonus: nothing here may stop or hold up the game — a clip that
// cannot be fetched or decoded leaves the reading as text, with a note.
//
// The browser's speech synthesis (speech.js) is kept only as the fallback for readings
// without clips (a custom pace, or a build without the voice): `plays(cur)` says which.

import { AudioRest } from "../audio-rest.js";
import { fmt } from "../text.js";
import { ClipLoader } from "./voice-loader.js";
import {
  CALIBRATION, WARN_LATENCY_MS, anchorFrom, calibrate, latencyMs, loadPrefs, pending, place,
  presentationDelay, savePrefs, slideFor, toCtx, toServer,
} from "./voice-schedule.js";

const SAMPLES_MS = 1000; // the clock samples the anchor is taken from: the last second's
// A new anchor once the page's clock estimate has moved by more than a clip may be off
// (docs/voice.md: within 10 ms); below that the reading keeps its anchor and its seams.
const REANCHOR_MS = 10;

/** How much later (ms) a server time falls on `b`'s map than on `a`'s. */
const drift = (a, b) => (toCtx(a, b.server) - b.ctx) * 1000;
const NOTE_STEP_MS = 5; // the latency note is written again when the figure moves this much
const FADE_S = 0.03; // a reading cut short (a take) fades out rather than clicks

export class Voice {
  constructor({ root, strings, serverNow, storage = globalThis.localStorage }) {
    this.S = strings;
    this.serverNow = serverNow;
    this.storage = storage;
    this.prefs = loadPrefs(storage);
    this.el = {
      start: root.querySelector("[data-voice-start]"),
      on: root.querySelector("[data-voice-on]"),
      volume: root.querySelector("[data-voice-volume]"),
      calibrate: root.querySelector("[data-voice-calibrate]"),
      note: root.querySelector("[data-voice-note]"),
      controls: root.querySelector("[data-voice-controls]"),
      speech: root.querySelector(".speech-toggle"), // the fallback's switch and its note
    };
    this.samples = []; // {ctx, server}: both clocks read together, each tick
    this.number = null; // the reading being voiced
    this.anchor = null;
    this.asked = new Set(); // clip ids of this reading already fetched or placed
    this.sources = [];
    this.fault = false;
    this.log = []; // one entry per clip placed (for tests and curious players)
    this.gaps = []; // ms from each kana's sound to its drawing (+: drawn after heard)
    this.heard = new Map(); // kana time -> server ms at which it is heard
    this.drawn = new Set();
    this.run = null; // a calibration run
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    try { this.context = Ctx ? new Ctx({ latencyHint: "interactive" }) : null; } catch { this.context = null; }
    if (!this.context) { this.el.controls.hidden = true; this.el.start.hidden = true; return; }
    // Suspended while no reading is under way or about to begin (allowRest), woken for one.
    this.idle = new AudioRest(this.context);
    this.gain = this.context.createGain();
    this.gain.gain.value = this.prefs.volume;
    this.gain.connect(this.context.destination);
    this.loader = new ClipLoader(this.context);
    this.bind();
    this.show();
  }

  get capable() { return Boolean(this.context); }
  get running() { return this.context?.state === "running"; }
  /** Running, or resting (suspended by this page, which wakes it for the next reading): to
   * the player, the audio is on. */
  get started() { return this.running || Boolean(this.idle?.resting); }
  get latency() { return this.context ? latencyMs(this.context, this.prefs.calibrationMs) : 0; }

  /** Whether this reading is voiced here (its clips are played, so speech stays quiet). */
  plays(cur) { return Boolean(cur && this.capable && this.prefs.on && (cur.r.voice ?? []).length); }

  /** How late (ms) the reading is shown, with its sound, when the output is slow. */
  delayFor(cur) { return this.plays(cur) && this.started ? presentationDelay(this.latency) : 0; }

  /** Whether this page can play the first reading (ready-gate.js): the voice off or
   * unavailable, or the audio running with every clip named ahead (voice_next: while
   * memorising, what the first reading opens with) decoded or given up on. Audio that
   * the browser holds until a gesture holds nobody: waiting cannot start it (the "start
   * the sound" button can, and the reading's lead covers a resume on the skip's own click).
   * Audio resting since the last sound is woken once "ready" is wanted (allowRest): the
   * first reading waits for it. */
  canPlay(view) {
    if (!this.capable || !this.prefs.on || !this.started) return true;
    if (!this.running) return false;
    return (view?.voice_next ?? []).every((clip) => this.loader.settled(clip));
  }

  bind() {
    const { el } = this;
    el.on.checked = this.prefs.on;
    el.volume.value = String(Math.round(this.prefs.volume * 100));
    el.on.addEventListener("change", () => { this.prefs.on = el.on.checked; this.save(); if (!this.prefs.on) this.stop(); this.show(); });
    el.volume.addEventListener("input", () => { this.prefs.volume = Number(el.volume.value) / 100; this.gain.gain.value = this.prefs.volume; this.save(); });
    el.start.addEventListener("click", () => this.resume());
    // Any key or touch is a gesture too: the first one starts the audio.
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, () => { if (!this.running) this.resume(); }, { capture: true });
    this.context.addEventListener?.("statechange", () => this.show());
    el.calibrate.addEventListener("click", () => { if (!this.run) this.calibrate(); });
    el.calibrate.addEventListener("pointerdown", (e) => this.tap(e.timeStamp));
    el.calibrate.addEventListener("keydown", (e) => { if ((e.key === " " || e.key === "Enter") && !e.repeat) this.tap(e.timeStamp); });
  }

  save() { savePrefs(this.storage, this.prefs); }

  resume() { this.context.resume?.().catch(() => {}).finally(() => this.show()); }

  /** Whether the audio may rest now (voice-schedule.js mayRest, each tick): when it may
   * not, it is held awake, and woken if it rests. */
  allowRest(may) {
    if (!this.capable) return;
    this.idle.hold(!may);
    if (!may) this.wake();
  }

  /** A context resting here, resumed (no gesture needed); a refusal shows the start button. */
  wake() { if (this.idle.resting) this.idle.wake().catch(() => this.show()); }

  show(message = null) {
    const { el } = this;
    this.noteLatency = Math.round(this.latency); // the figure the note was written with
    el.start.hidden = !this.prefs.on || this.started;
    el.volume.disabled = !this.prefs.on;
    el.calibrate.disabled = !this.prefs.on || !this.started;
    if (message !== null) { el.note.textContent = message; return; }
    el.note.textContent = this.fault ? this.S.voiceFault : this.latencyNote();
  }

  /** What the output's latency does to the reading: past the 100 ms the release lead hides,
   * sound and picture are both shown late by the excess; up to WARN_LATENCY_MS (150 ms) the
   * note says so plainly, beyond it as a warning (a Bluetooth headset?). "" when nothing is
   * delayed. */
  latencyNote() {
    if (!this.prefs.on || !this.started) return "";
    const figures = { ms: Math.round(this.latency), late: presentationDelay(this.latency) };
    if (this.latency > WARN_LATENCY_MS) return fmt(this.S.voiceSlow, figures);
    return figures.late > 0 ? fmt(this.S.voiceLate, figures) : "";
  }

  // --- the reading ---------------------------------------------------------------------

  /** Called every tick with the reading (or null), the time it is shown at and the view. */
  follow(cur, shownT, view = null) {
    if (!this.capable) return;
    this.sample();
    // outputLatency settles only once the output runs: the note follows it.
    if (!this.run && Math.abs(Math.round(this.latency) - this.noteLatency) >= NOTE_STEP_MS) this.show();
    const number = cur ? cur.number : null;
    if (number !== this.number) this.reset(number);
    // What the next reading opens with, fetched now: it is due the moment that reading's
    // state begins, before any frame of it can arrive (release.voice_next).
    if (this.prefs.on) for (const clip of view?.voice_next ?? []) this.loader.load(clip).catch(() => {});
    // While the recorded voice reads, the speech fallback's switch (and its "no Japanese
    // voice on this device" note) would only confuse.
    // (Written only when it changes: this runs on every tick, and any write of `hidden`
    // recalculates the page's style.)
    if (cur && this.el.speech && this.el.speech.hidden !== this.plays(cur)) this.el.speech.hidden = this.plays(cur);
    if (!this.plays(cur) || !this.running) return;
    for (const clip of pending(cur.r.voice, this.asked)) {
      this.asked.add(clip.id);
      this.loader.load(clip).then((buffer) => this.start(cur, clip, buffer), () => this.broken());
    }
    this.measure(cur, shownT);
  }

  sample() {
    // A suspended context's clock stands still: its samples would bend the next anchor.
    if (!this.running) { this.samples = []; return; }
    const server = this.serverNow();
    this.samples.push({ ctx: this.context.currentTime, server });
    while (this.samples.length > 1 && this.samples[0].server < server - SAMPLES_MS) this.samples.shift();
  }

  reset(number) {
    this.stop();
    this.number = number;
    this.anchor = null;
    this.asked = new Set();
    this.heard = new Map();
    this.drawn = new Set();
    if (this.fault) { this.fault = false; this.show(); }
  }

  stop() {
    const at = this.context.currentTime;
    for (const src of this.sources) {
      try { src.fade.gain.setTargetAtTime(0, at, FADE_S / 3); src.node.stop(at + FADE_S); } catch { /* already over */ }
    }
    this.sources = [];
  }

  start(cur, clip, buffer) {
    if (cur.number !== this.number || !this.plays(cur) || !this.running) return; // the reading moved on meanwhile
    const ctx = this.context;
    this.sample();
    // One map per reading, so its seams stay exact; a new one only if the page's clock
    // estimate has moved since by more than REANCHOR_MS (early pongs on a busy link).
    const fresh = anchorFrom(this.samples);
    if (!this.anchor || Math.abs(drift(this.anchor, fresh)) > REANCHOR_MS) this.anchor = fresh;
    const latency = this.latency;
    const delay = presentationDelay(latency);
    const nowCtx = ctx.currentTime;
    const slideS = slideFor(clip, cur.r.voice);
    const p = place(clip, { base: cur.base, anchor: this.anchor, latency, delay, nowCtx, durationS: buffer.duration, slideS });
    if (!p) return;
    const node = ctx.createBufferSource();
    const fade = ctx.createGain();
    node.buffer = buffer;
    node.connect(fade).connect(this.gain);
    node.start(p.when, p.offset);
    this.sources.push({ node, fade });
    node.onended = () => { this.sources = this.sources.filter((s) => s.node !== node); };
    this.idle.busy(p.when + buffer.duration - p.offset); // its tail is not cut by a rest
    const server = this.serverNow();
    const dueServer = cur.base + clip.start + delay;
    // The scheduler's own account: how far the start it asked for lies from the due time
    // on the page's clock as it reads now (ms; + late): the reading's anchor against the
    // freshest map of the last second, plus any lateness. `lag`: against this one sample
    // of currentTime, which trails the audio clock by up to a device buffer.
    const error = drift(this.anchor, fresh) + (p.offset + p.slid) * 1000;
    const lag = (p.when + latency / 1000 - nowCtx) * 1000 - (dueServer - server);
    // The browser's own account, where it gives one: the moment (page clock) the sample
    // at `when` leaves the output, against the due time.
    const out = ctx.getOutputTimestamp?.();
    const perf = performance.now();
    const errorOut = out && out.performanceTime > 0 ? out.performanceTime + (p.when - out.contextTime) * 1000 - (perf + dueServer - server) : null;
    this.log.push({ number: cur.number, id: clip.id, part: clip.part, start: clip.start, when: p.when, offset: p.offset, slid: p.slid * 1000, latency, delay, error, lag, errorOut, late: p.offset * 1000 });
    for (const onset of clip.onsets) {
      const heardCtx = p.when - p.offset + onset / 1000 + latency / 1000;
      this.heard.set(clip.start + onset, toServer(this.anchor, heardCtx));
    }
  }

  broken() {
    if (this.fault) return;
    this.fault = true;
    this.show();
  }

  /** Screen-to-sound: each kana's drawing (this tick) against when its sound is heard. */
  measure(cur, shownT) {
    const server = this.serverNow();
    const kana = [...(cur.r.kana ?? []), ...(cur.r.shimo?.kana ?? [])];
    for (const [, t] of kana) {
      if (t > shownT || this.drawn.has(t)) continue;
      this.drawn.add(t);
      let best = null;
      for (const [at, heard] of this.heard) if (Math.abs(at - t) <= 5 && (best === null || Math.abs(at - t) < Math.abs(best[0] - t))) best = [at, heard];
      if (best && this.gaps.length < 5000) this.gaps.push(server - best[1]);
    }
  }

  // --- calibration -----------------------------------------------------------------------

  /** Play CALIBRATION.beats clicks; the player taps the button with each one. */
  calibrate() {
    // Resting: the beats are placed on the running clock (the heard times are page times).
    if (this.idle.resting) { this.idle.wake().then(() => this.calibrate(), () => this.show()); return; }
    const ctx = this.context;
    const { beats, intervalMs } = CALIBRATION;
    const latency = latencyMs(ctx, 0); // what the browser says; the taps measure the rest
    const first = ctx.currentTime + 0.8;
    const perfNow = performance.now();
    const heard = [];
    for (let i = 0; i < beats; i += 1) {
      const at = first + (i * intervalMs) / 1000;
      const osc = ctx.createOscillator();
      const amp = ctx.createGain();
      osc.frequency.value = i % 4 ? 880 : 1320;
      amp.gain.setValueAtTime(0.4, at);
      amp.gain.exponentialRampToValueAtTime(0.001, at + 0.05);
      osc.connect(amp).connect(this.gain);
      osc.start(at);
      osc.stop(at + 0.06);
      heard.push(perfNow + (at - ctx.currentTime) * 1000 + latency);
    }
    this.idle.busy(first + (beats * intervalMs) / 1000);
    this.run = { heard, taps: [], latency };
    this.el.calibrate.textContent = this.S.voiceTap;
    this.show(this.S.voiceTapHelp);
    setTimeout(() => this.finish(), 800 + beats * intervalMs + 400);
  }

  tap(timeStamp) {
    if (this.run) this.run.taps.push(timeStamp);
  }

  finish() {
    const { heard, taps, latency } = this.run;
    this.run = null;
    this.el.calibrate.textContent = this.S.voiceCalibrate;
    const got = calibrate(heard, taps);
    if (!got) { this.show(this.S.voiceCalibrateAgain); return; }
    this.prefs.calibrationMs = got.offsetMs;
    this.save();
    // The result, and at once what it does to the reading (the warning, past 150 ms).
    const result = fmt(this.S.voiceCalibrated, { ms: Math.round(latency + got.offsetMs) });
    this.show([result, this.latencyNote()].filter(Boolean).join(" "));
  }

  /** What this page did, for tests and curious players (no poem: only what was released). */
  report() {
    return {
      state: this.context?.state ?? "none",
      latency: this.latency,
      outputMs: this.context ? latencyMs(this.context, 0) : 0, // the browser's own figure
      calibrationMs: this.prefs.calibrationMs,
      delay: presentationDelay(this.latency),
      log: this.log.slice(),
      decodeMs: this.loader ? this.loader.decodeMs.slice() : [],
      failed: this.loader ? [...this.loader.failed] : [],
      gaps: this.gaps.slice(),
      calibration: this.run ? { heard: this.run.heard.slice() } : null, // beats, page ms
    };
  }
}
