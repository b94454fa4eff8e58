// When this page says "ready" (the end of memorisation, or its skip): once it can play the
// first reading, so that reading's opening clip is decoded and the audio runs before the
// server starts it (issue 43: with memorisation skipped, a cold page heard its first kana
// cut or not at all). Never later than READY_CAP_MS after it was wanted: a page that cannot
// play (a clip that will not come, audio that waits for a gesture) holds nobody for long;
// the server has its own cap besides (engine.ready_deadline). Pure given its clock
// (tests/js/karuta-ready-gate.test.mjs).

export const READY_CAP_MS = 4000;

export class ReadyGate {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.wantedAt = null;
    this.sent = false;
  }

  /** The player (or the memorisation time running out) asks to start: from now on. */
  want() { if (this.wantedAt === null) this.wantedAt = this.now(); }

  get wanted() { return this.wantedAt !== null; }

  /** Whether to send "ready" now (once): wanted, and the page can play or waited long enough. */
  due(canPlay) {
    if (this.sent || this.wantedAt === null) return false;
    if (!canPlay && this.now() - this.wantedAt < READY_CAP_MS) return false;
    this.sent = true;
    return true;
  }

  /** A new memorisation (or none): nothing wanted, nothing sent. */
  reset() { this.wantedAt = null; this.sent = false; }
}
