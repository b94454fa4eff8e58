// The reading voice's arithmetic. Pure (Node-tested): no AudioContext, no DOM, no clock of
// its own — times come in as numbers.
//
// The server releases which clip plays when (`reading.voice`: id, url, start, duration,
// onsets; games/karuta/release.py), each clip with its first kana. A clip is due on the
// reading's clock at `start` (ms, t = 0: the first upper-verse kana), i.e. at server time
// base + start. The page maps server time onto the AudioContext's clock through one anchor
// per reading (so every seam of a reading lands on the same map: consecutive clips abut to
// the sample), and starts each clip `latency` ms early so it leaves the speaker on time.
//
// When the output is slower than the lead can cover (Bluetooth: 180–200 ms), sound and
// picture are both shown `delay` ms late, together; touches keep the server's clock.

/** Ms before a kana is due that its frame arrives (MATCHES_RELEASE_LEAD_MS) less what a
 * fetch and decode of a small cached clip take: the latency the voice can hide. */
export const HIDDEN_LATENCY_MS = 100;
/** Above this, the page says the sound (and the picture with it) comes late. */
export const WARN_LATENCY_MS = 150;
/** A clip is never started closer to "now" than this (the audio thread needs the time). */
export const SAFETY_S = 0.005;
export const CALIBRATION = { beats: 8, intervalMs: 600, minTaps: 5, windowMs: 300, maxSpreadMs: 60, min: -50, max: 400 };

/**
 * The map from server time to the AudioContext's time, from samples of both clocks read
 * together ({ctx: s, server: ms}). `currentTime` moves in steps (a render quantum, or the
 * device's buffer), so a sample reads it late by up to a step: the sample with the largest
 * ctx − server is the freshest, and its difference is the map's.
 */
export function anchorFrom(samples) {
  if (!samples.length) return null;
  let best = samples[0];
  for (const s of samples) if (s.ctx * 1000 - s.server > best.ctx * 1000 - best.server) best = s;
  return { ctx: best.ctx, server: best.server };
}

/** Server epoch ms → AudioContext seconds on an anchor. */
export const toCtx = (anchor, serverMs) => anchor.ctx + (serverMs - anchor.server) / 1000;
/** AudioContext seconds → server epoch ms on an anchor. */
export const toServer = (anchor, ctxS) => anchor.server + (ctxS - anchor.ctx) * 1000;

/** The output latency the page allows for (ms): the browser's figure plus this browser's
 * calibration. `outputLatency` (the whole path) when given, else `baseLatency`. */
export function latencyMs({ outputLatency, baseLatency } = {}, calibrationMs = 0) {
  const reported = Number.isFinite(outputLatency) && outputLatency > 0 ? outputLatency : Number.isFinite(baseLatency) ? baseLatency : 0;
  return Math.max(0, reported * 1000 + (Number.isFinite(calibrationMs) ? calibrationMs : 0));
}

/** How late sound and picture are shown together when the latency exceeds what the lead
 * hides (ms, ≥ 0). */
export const presentationDelay = (latency) => Math.max(0, Math.round(latency - HIDDEN_LATENCY_MS));

/** The most a preamble clip may start late, whole, instead of being cut (s). */
export const SLIDE_MAX_S = 0.5;

/**
 * Where a clip goes on the AudioContext: {when, offset, due, slid} in seconds. `due` is
 * the context time it must leave the speaker at; `when` the start() time (due − latency).
 * If that has passed (a clip that arrived late): up to `slideS` late it starts whole at
 * now + SAFETY_S (`slid`: how late); later than that it starts then with `offset` into
 * the buffer, so what follows stays on time. null when the whole clip is already past.
 */
export function place(clip, { base, anchor, latency, delay = 0, nowCtx, durationS = clip.duration / 1000, slideS = 0 }) {
  const due = toCtx(anchor, base + clip.start + delay);
  const start = due - latency / 1000;
  const earliest = nowCtx + SAFETY_S;
  if (start >= earliest) return { when: start, offset: 0, due, slid: 0 };
  const offset = earliest - start;
  if (offset <= slideS) return { when: earliest, offset: 0, due, slid: offset };
  if (offset >= durationS) return null;
  return { when: earliest, offset, due, slid: 0 };
}

/**
 * How late (s) a clip may start whole: only the preamble (what was read already, or the
 * 序歌: no touch is timed against it), and only as long as it still ends before the next
 * clip of the reading begins. 0 for the upper and lower verse: they keep their time.
 */
export function slideFor(clip, clips) {
  if (!["joka", "joka_shimo", "shimo"].includes(clip.part)) return 0;
  const i = clips.findIndex((c) => c.id === clip.id && c.start === clip.start);
  const next = clips[i + 1];
  const room = next ? (next.start - (clip.start + clip.duration)) / 1000 : SLIDE_MAX_S;
  return Math.max(0, Math.min(SLIDE_MAX_S, room));
}

/** The clips of `clips` not yet placed (`done`: ids), in play order. */
export const pending = (clips, done) => (clips ?? []).filter((c) => !done.has(c.id));

/** Gaps (ms, + gap, − overlap) between each clip's end and the next's start, as placed. */
export function seams(placed) {
  const out = [];
  for (let i = 1; i < placed.length; i += 1) {
    const a = placed[i - 1];
    const b = placed[i];
    out.push(((b.when - b.offset) - (a.when - a.offset + a.durationS)) * 1000);
  }
  return out;
}

/** The server time (ms) at which each voiced kana of a clip is heard. */
export const heardAt = (clip, base, delay = 0) => clip.onsets.map((o) => base + clip.start + o + delay);

/**
 * The calibration from a "tap with the beat" run: beats heard at `beats` (ms, as scheduled
 * with the latency allowed for so far) and taps at `taps` (ms, same clock). Each tap is
 * matched to its nearest beat within the window; the median lateness is the correction
 * (ms, added to the latency). null when too few taps match or they scatter too widely to
 * say (the player is asked to try again).
 */
export function calibrate(beats, taps, c = CALIBRATION) {
  const lates = [];
  for (const tap of taps) {
    let best = null;
    for (const beat of beats) if (best === null || Math.abs(tap - beat) < Math.abs(tap - best)) best = beat;
    if (best !== null && Math.abs(tap - best) <= c.windowMs) lates.push(tap - best);
  }
  if (lates.length < c.minTaps) return null;
  lates.sort((a, b) => a - b);
  const median = quantile(lates, 0.5);
  const spread = quantile(lates, 0.75) - quantile(lates, 0.25);
  if (spread > c.maxSpreadMs) return null;
  return { offsetMs: Math.round(Math.min(c.max, Math.max(c.min, median))), spreadMs: Math.round(spread), taps: lates.length };
}

/** The q-quantile of sorted numbers (linear between neighbours). */
export function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

// --- the player's choices, remembered per browser ------------------------------------------

export const PREFS_KEY = "hyakunin.karuta.voice";
export const DEFAULT_PREFS = { on: true, volume: 0.8, calibrationMs: 0 };

/** The voice settings as remembered in `storage` (localStorage, or a stand-in), checked. */
export function loadPrefs(storage) {
  let raw = null;
  try { raw = JSON.parse(storage?.getItem(PREFS_KEY) ?? "null"); } catch { raw = null; }
  const p = { ...DEFAULT_PREFS };
  if (raw && typeof raw === "object") {
    if (typeof raw.on === "boolean") p.on = raw.on;
    if (Number.isFinite(raw.volume)) p.volume = Math.min(1, Math.max(0, raw.volume));
    if (Number.isFinite(raw.calibrationMs)) p.calibrationMs = Math.min(CALIBRATION.max, Math.max(CALIBRATION.min, raw.calibrationMs));
  }
  return p;
}

export function savePrefs(storage, prefs) {
  try { storage?.setItem(PREFS_KEY, JSON.stringify(prefs)); } catch { /* private mode: not remembered */ }
}

/**
 * Whether the voice's audio may rest (audio-rest.js: suspended until the next reading).
 * Only where no reading can begin before this page's player acts, and their key or touch
 * wakes it (voice.js): memorising before they said ready (the ready gate wakes it and waits
 * for it), choosing the card they send; and with no game yet (a friend room waiting, which
 * opens with memorising) or its end. Anywhere else a reading may begin any moment (a CPU's
 * or a friend's ready or send) and its first clip is due the instant its state begins.
 */
export function mayRest(view, you, { readyWanted = false, ended = false } = {}) {
  if (!view || ended || view.phase === "over") return true;
  const mine = you !== null && you !== undefined && (view.to_act ?? []).includes(you);
  if (view.phase === "memorise") return mine && !readyWanted;
  if (view.phase === "send") return mine;
  return false;
}
