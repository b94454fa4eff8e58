// Sounds for the play screens, made by the page with Web Audio (no recordings, nothing to
// licence; credited on the credits page). Off until the player turns them on; the choice is
// remembered in this browser (localStorage), never sent anywhere.

import { AudioRest } from "./audio-rest.js";

const KEY = "hyakunin.sound";

/** Each sound as notes: [frequency Hz, start s, length s, wave, gain]. Pure, Node-tested. */
export const RECIPES = {
  flip: [[880, 0, 0.05, "triangle", 0.25], [1320, 0.03, 0.06, "triangle", 0.18]],
  take: [[523.25, 0, 0.12, "sine", 0.3], [783.99, 0.08, 0.18, "sine", 0.3]],
  fault: [[220, 0, 0.16, "square", 0.14], [174.61, 0.12, 0.24, "square", 0.14]],
  win: [[523.25, 0, 0.14, "triangle", 0.3], [659.25, 0.13, 0.14, "triangle", 0.3], [783.99, 0.26, 0.14, "triangle", 0.3], [1046.5, 0.39, 0.4, "triangle", 0.3]],
  end: [[392, 0, 0.2, "sine", 0.25], [329.63, 0.18, 0.35, "sine", 0.25]],
};

/** Whether sound is on, as remembered (`storage` is localStorage, or a stand-in in tests). */
export function remembered(storage) {
  try { return storage?.getItem(KEY) === "on"; } catch { return false; }
}

export function remember(storage, on) {
  try { storage?.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: not remembered */ }
}

/** Total length of a sound in seconds. */
export const lengthOf = (name) => Math.max(...RECIPES[name].map(([, start, len]) => start + len));

export class Sound {
  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    this.on = remembered(storage);
    this.context = null;
    this.played = []; // names, for tests and curious players (window.playSounds)
  }

  set(on) {
    this.on = on;
    remember(this.storage, on);
  }

  /** A visible switch: a toggle button (aria-pressed) that says what it does. */
  bind(button) {
    if (!button) return;
    const show = () => button.setAttribute("aria-pressed", String(this.on));
    button.addEventListener("click", () => { this.set(!this.on); show(); if (this.on) this.play("flip"); });
    show();
  }

  play(name) {
    if (!this.on || !RECIPES[name]) return;
    this.played.push(name);
    try {
      const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
      if (!Ctx) return;
      this.context ??= new Ctx();
      this.idle ??= new AudioRest(this.context); // suspended between sounds
      const ctx = this.context;
      this.idle.wake().catch(() => {});
      const t0 = ctx.currentTime + 0.01;
      for (const [freq, start, len, wave, gain] of RECIPES[name]) {
        const osc = ctx.createOscillator();
        const amp = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        amp.gain.setValueAtTime(gain, t0 + start);
        amp.gain.exponentialRampToValueAtTime(0.001, t0 + start + len);
        osc.connect(amp).connect(ctx.destination);
        osc.start(t0 + start);
        osc.stop(t0 + start + len + 0.02);
      }
      this.idle.busy(t0 + lengthOf(name) + 0.02);
    } catch {
      /* sound is a bonus: never let it stop the game */
    }
  }
}
