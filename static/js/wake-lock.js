// Keeps the screen on while a game needs watching without touching (karuta's memorisation
// and readings), and lets it sleep again after. The browser drops the lock whenever the
// tab is hidden, so it is asked for again when the tab comes back. Where the Screen Wake
// Lock API is missing or refuses (battery saver), the game simply goes on without it.

export class ScreenAwake {
  /** api: navigator.wakeLock (or a fake); doc: the document (visibilityState, events). */
  constructor({ api = globalThis.navigator?.wakeLock, doc = globalThis.document } = {}) {
    this.api = api ?? null;
    this.doc = doc;
    this.wanted = false;
    this.sentinel = null;
    this.asking = false;
    doc?.addEventListener?.("visibilitychange", () => {
      if (this.wanted && doc.visibilityState === "visible") this.acquire();
    });
  }

  /** Say whether the screen should stay on now; safe to call on every frame. */
  want(on) {
    this.wanted = Boolean(on);
    if (this.wanted) this.acquire();
    else this.release();
  }

  async acquire() {
    if (!this.api || this.sentinel || this.asking || this.doc?.visibilityState === "hidden") return;
    this.asking = true;
    try {
      const sentinel = await this.api.request("screen");
      sentinel.addEventListener?.("release", () => { if (this.sentinel === sentinel) this.sentinel = null; });
      this.sentinel = sentinel;
      if (!this.wanted) this.release(); // the game ended while the browser was answering
    } catch {
      this.sentinel = null; // refused: the screen may sleep, nothing else changes
    } finally {
      this.asking = false;
    }
  }

  release() {
    const sentinel = this.sentinel;
    this.sentinel = null;
    sentinel?.release?.().catch?.(() => {});
  }
}
