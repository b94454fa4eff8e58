// The record's step-through: which move is shown, from buttons, keys, the move list, the
// address (#N) and autoplay. Pure (Node-tested): the clock is injected.

/** The nearest step that exists: a number out of range (or not a number) is brought in. */
export function clampStep(n, count) {
  if (count <= 0) return 0;
  const whole = Number.isFinite(n) ? Math.round(n) : 0;
  return Math.min(count - 1, Math.max(0, whole));
}

/** The step named by the address's "#N" (the nearest one), or null when it names none. */
export function stepFromHash(hash, count) {
  const match = /^#?(-?\d+)$/.exec(String(hash || "").trim());
  return match ? clampStep(Number(match[1]), count) : null;
}

const KEYS = {
  ArrowLeft: (n) => n - 1,
  ArrowRight: (n) => n + 1,
  Home: () => 0,
  End: (_n, count) => count - 1,
};

/** The step a key leads to, or null for a key the replay does not use. */
export function keyStep(key, n, count) {
  const move = KEYS[key];
  return move ? clampStep(move(n, count), count) : null;
}

export class Stepper {
  /**
   * @param {number} count  how many steps
   * @param {{onChange: (n: number) => void, setTimer?: Function, clearTimer?: Function}} options
   */
  constructor(count, {
    onChange,
    // Wrapped: the browser's timers throw "Illegal invocation" when called as a method of
    // another object (this.setTimer(...)), which Node's and a fake clock's do not.
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (id) => clearTimeout(id),
  }) {
    this.count = count;
    this.n = 0;
    this.onChange = onChange;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    this.timer = null;
  }

  go(n) {
    const next = clampStep(n, this.count);
    const changed = next !== this.n;
    this.n = next;
    this.onChange(this.n);
    return changed;
  }

  key(key) {
    const next = keyStep(key, this.n, this.count);
    if (next === null) return false;
    this.stop();
    this.go(next);
    return true;
  }

  get playing() { return this.timer !== null; }

  /** Autoplay from here at `pace` ms a move (from the start when at the end); stops at the end. */
  play(pace) {
    this.stop();
    if (this.n >= this.count - 1) this.go(0);
    // The next tick is set before the move is shown, so the page sees `playing` as it
    // stands after this step (and the end, with no tick left, as stopped).
    const tick = () => {
      const next = this.n + 1;
      this.timer = next < this.count - 1 ? this.setTimer(tick, pace) : null;
      this.go(next);
    };
    this.timer = this.setTimer(tick, pace);
  }

  stop() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }
}
