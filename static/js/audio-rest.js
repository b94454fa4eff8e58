// An AudioContext that runs renders silence for as long as it runs: in Chromium its audio
// thread and the audio service cost ~0.017 CPU s a second (bench/bench_idle_cpu.py), a
// phone's battery while the page waits for a move. AudioRest suspends a context once
// nothing has sounded for `restMs` and nobody holds it awake, and resumes it before the
// next sound. A context this page suspended is resumed without a new gesture: Chromium
// lets a page that has had one start audio (sticky activation), and WebKit a context that
// has started once. A context the browser holds until a gesture is never touched here.
// Pure given its timers and the context (tests/js/audio-rest.test.mjs with a fake one).

export const REST_MS = 5000;

export class AudioRest {
  constructor(context, { restMs = REST_MS, setTimer = setTimeout, clearTimer = clearTimeout } = {}) {
    this.context = context;
    this.restMs = restMs;
    // Called as plain functions: a browser's setTimeout refuses any other `this`.
    this.setTimer = (fn, ms) => setTimer(fn, ms);
    this.clearTimer = (id) => clearTimer(id);
    this.timer = null;
    this.held = false;
    this.until = 0; // the context's time (s) until which something sounds
    this.rested = false; // suspended by this object, so it may resume it
    // Running again, whoever resumed it (a gesture's own resume too): rest again later.
    context.addEventListener?.("statechange", () => {
      if (context.state !== "running") return;
      this.rested = false;
      this.arm();
    });
  }

  /** Suspended here and not woken since: running as far as the page's controls go. */
  get resting() { return this.rested && this.context.state !== "running"; }

  /** Something sounds until `untilS` on the context's clock: no rest before then. */
  busy(untilS) {
    this.until = Math.max(this.until, untilS);
    this.arm();
  }

  /** While held, never rest (karuta: a reading under way, or about to begin); let go (as
   * often as you like), it rests once the rest time has passed without a sound. */
  hold(on) {
    this.held = on;
    if (on) this.disarm();
    else if (this.timer === null) this.arm();
  }

  /** Resumes a context rested here (resolves at once otherwise); rests again later. */
  wake() {
    if (!this.rested) return Promise.resolve();
    this.rested = false;
    const resumed = this.context.resume();
    this.arm();
    return resumed;
  }

  arm() {
    this.disarm();
    if (this.held || this.context.state !== "running") return; // running again arms it
    const left = Math.max(0, (this.until - this.context.currentTime) * 1000);
    this.timer = this.setTimer(() => this.rest(), left + this.restMs);
  }

  disarm() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  rest() {
    this.timer = null;
    if (this.held || this.context.state !== "running") return;
    if (this.context.currentTime < this.until) { this.arm(); return; }
    this.rested = true;
    this.context.suspend().catch(() => { this.rested = false; });
  }
}
