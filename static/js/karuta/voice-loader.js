// Fetching and decoding the reading voice's clips. A clip is fetched only once a frame has
// released it (its URL is a content hash: it names nothing, and the HTTP cache may keep
// it); nothing is fetched ahead of that, so no request ever tells more than the frames
// already have. Each clip is decoded once per page (a Map of promises by id); one that
// failed is asked for again after a backoff.

/** How long (ms) before a clip that failed `attempts` times is asked for again. */
export const retryAfterMs = (attempts) => Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempts - 1));
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 8000;

export class ClipLoader {
  constructor(context, { fetch = globalThis.fetch.bind(globalThis), now = () => performance.now() } = {}) {
    this.context = context;
    this.fetch = fetch;
    this.now = now;
    this.buffers = new Map(); // id -> { promise: Promise<AudioBuffer>, attempts, retryAt }
    this.decodeMs = []; // how long each decodeAudioData took (ms), for the figures
    this.failed = new Set(); // ids whose last fetch or decoding failed
  }

  /**
   * The decoded clip (a promise, shared by every caller; rejected if missing or corrupt).
   * A failure is not for the page's life: a load after a backoff (0.5 s, doubling to 8 s)
   * asks again, so a clip lost to one bad answer is back for its next use (the frames name
   * the next reading's clips ahead, and the page loads them every tick).
   */
  load(clip) {
    const entry = this.buffers.get(clip.id);
    if (entry && (entry.retryAt === null || this.now() < entry.retryAt)) return entry.promise;
    const next = { promise: this.fetchAndDecode(clip), attempts: (entry?.attempts ?? 0) + 1, retryAt: null };
    this.buffers.set(clip.id, next);
    next.promise.then(
      () => { next.done = true; this.failed.delete(clip.id); },
      () => {
        next.done = true;
        this.failed.add(clip.id);
        next.retryAt = this.now() + retryAfterMs(next.attempts);
      },
    );
    return next.promise;
  }

  /** Whether the clip's last load has settled: decoded, or failed (nothing to wait for). */
  settled(clip) { return Boolean(this.buffers.get(clip.id)?.done) || this.failed.has(clip.id); }

  async fetchAndDecode(clip) {
    const response = await this.fetch(clip.url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`clip ${clip.id}: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    const t = this.now();
    const buffer = await this.context.decodeAudioData(bytes);
    this.decodeMs.push(this.now() - t);
    return buffer;
  }
}
