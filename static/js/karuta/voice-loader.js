// Fetching and decoding the reading voice's clips. A clip is fetched only once a frame has
// released it (its URL is a content hash: it names nothing, and the HTTP cache may keep
// it); nothing is fetched ahead of that, so no request ever tells more than the frames
// already have. Each clip is decoded once per page (a Map of promises by id).

export class ClipLoader {
  constructor(context, { fetch = globalThis.fetch.bind(globalThis), now = () => performance.now() } = {}) {
    this.context = context;
    this.fetch = fetch;
    this.now = now;
    this.buffers = new Map(); // id -> Promise<AudioBuffer>
    this.decodeMs = []; // how long each decodeAudioData took (ms), for the figures
    this.failed = new Set(); // ids that could not be fetched or decoded
  }

  /** The decoded clip (a promise, shared by every caller; rejected if missing or corrupt). */
  load(clip) {
    let p = this.buffers.get(clip.id);
    if (!p) {
      p = this.fetchAndDecode(clip);
      this.buffers.set(clip.id, p);
      p.catch(() => this.failed.add(clip.id));
    }
    return p;
  }

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
