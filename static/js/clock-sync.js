// The server's clock, estimated from ping/pong round trips (NTP-style). Pure: no DOM, no
// socket; the local clock is injected (tests pass a fake one).
//
// For each pong: t1 = local send time, now = the server's epoch ms when it answered,
// t4 = local receipt. delay = t4 - t1; offset = now - (t1 + t4) / 2. If the way out and
// the way back took as long, that offset is exact; otherwise it is off by half their
// difference, and never by more than delay / 2 (the `bound`). Jitter (queues) only adds
// delay, so the samples with the lowest delay are the ones whose two legs were nearly
// equal: we keep a recent window and average the offsets of its few fastest samples.
// What no round trip can reveal is a constant asymmetry (a slow uplink and a fast
// downlink): it shifts the estimate by half the difference, within the bound.
//
//   const sync = new ClockSync();
//   const t1 = sync.now(); send({type: "ping", ...sync.pingFields(t1)});
//   on pong: sync.add(t1, pong.now);   then sync.serverNow() = local clock + offset.
//
// The Python twin is tests/support/clocksync.py (same rules, used by scripted players).

export const WINDOW = 32; // the most recent samples kept (a changed route is followed)
export const BEST = 3; // how many of the lowest-delay samples are averaged
export const MAX_DELAY_MS = 10000; // a round trip longer than this says nothing useful
export const MAX_HELD_MS = 60000;

/** The browser's local clock: epoch ms that never jumps back (performance.now-based). */
export function localClock() {
  if (typeof performance !== "undefined" && performance.timeOrigin) return () => performance.timeOrigin + performance.now();
  return () => Date.now();
}

export class ClockSync {
  constructor({ now = localClock(), window = WINDOW, best = BEST } = {}) {
    this.now = now;
    this.window = window;
    this.best = best;
    this.samples = []; // {t1, t4, delay, offset}, oldest first
    this.lastPong = null; // {now, t4}: echoed in the next ping so the server can time us too
    this.estimate = null; // {offset, bound, delay, samples}
  }

  /** Record one pong. Returns the sample, or null when it is unusable. */
  add(t1, serverNow, t4 = this.now()) {
    if (![t1, serverNow, t4].every(Number.isFinite)) return null;
    this.lastPong = { now: serverNow, t4 };
    const delay = t4 - t1;
    if (delay < 0 || delay > MAX_DELAY_MS) return null;
    const sample = { t1, t4, delay, offset: serverNow - (t1 + t4) / 2 };
    this.samples.push(sample);
    if (this.samples.length > this.window) this.samples.shift();
    this.estimate = estimate(this.samples, this.best);
    return sample;
  }

  get ready() { return this.estimate !== null; }
  /** Server time minus local time, in ms (0 until a first pong). */
  get offset() { return this.estimate ? this.estimate.offset : 0; }
  /** The quality figure: the estimate is within ±bound ms of the truth, whatever the asymmetry. */
  get bound() { return this.estimate ? this.estimate.bound : Infinity; }
  /** The lowest round trip seen in the window (ms). */
  get delay() { return this.estimate ? this.estimate.delay : null; }

  serverNow(local = this.now()) { return local + this.offset; }

  /** The `echo` and `held` fields of a ping sent at local time t1 (protocol v1). */
  pingFields(t1 = this.now()) {
    if (!this.lastPong) return {};
    const held = Math.round(t1 - this.lastPong.t4);
    if (held < 0 || held > MAX_HELD_MS) return {};
    return { echo: this.lastPong.now, held };
  }
}

/** The average offset of the `best` lowest-delay samples, with its error bound. */
export function estimate(samples, best = BEST) {
  if (!samples.length) return null;
  const fastest = [...samples].sort((a, b) => a.delay - b.delay).slice(0, best);
  const mean = (f) => fastest.reduce((sum, s) => sum + f(s), 0) / fastest.length;
  return {
    offset: mean((s) => s.offset),
    bound: mean((s) => s.delay) / 2,
    delay: fastest[0].delay,
    samples: samples.length,
  };
}
