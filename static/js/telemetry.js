// Game statistics for this site's own server (docs/requirements.md §6), sent only while the
// "send game statistics" switch is on. Every value is a category or a bucket made
// here; the server refuses anything else.
//
// Wiring a game page is one line: {% include "telemetry/switch.html" with game=game %}
// Play scripts then import this module and call gameStart/gameEnd/view3dFailure/...
// A page without the switch sends nothing: people always see the switch where data leaves.

const STORAGE_KEY = "hyakunin.telemetry";
const FLUSH_DELAY_MS = 3000;
const MAX_BATCH = 50;
const MAX_HELD = 4 * MAX_BATCH; // events kept while offline, the newest

// One state per page, even if this file is imported under two URLs (hashed and plain).
const state = (globalThis[Symbol.for("hyakunin.telemetry")] ??= {
  // Random, made on this page load, kept only in this page's memory: the one link
  // between the events of one page view. Never in a cookie or in storage.
  pageView: randomHex(16),
  queue: [],
  timer: null,
  endpoint: null,
  game: null,
  openedAt: performance.now(),
  view3d: "none", // none | expected | started | failed
  bound: false,
  leaveHooks: [], // run once, just before the flush as the page goes (beforeLeaving)
});

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- the switch ---------------------------------------------------------------

export function isEnabled() {
  try {
    return localStorage.getItem(STORAGE_KEY) !== "off";
  } catch {
    return true; // storage blocked: the default (on) applies, the switch still works per page
  }
}

export function setEnabled(on) {
  try {
    localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  } catch {
    /* storage blocked: nothing to remember */
  }
  if (!on) discard();
  for (const box of document.querySelectorAll("[data-telemetry-toggle]")) box.checked = on;
}

function discard() {
  state.queue = [];
  clearTimeout(state.timer);
  state.timer = null;
}

// --- buckets ------------------------------------------------------------------

function bucket(value, edges, labels) {
  for (let i = 0; i < edges.length; i += 1) if (value < edges[i]) return labels[i];
  return labels[labels.length - 1];
}

export const buckets = {
  moves: (n) => bucket(n, [1, 10, 30, 100, 300], ["0", "1-9", "10-29", "30-99", "100-299", "300+"]),
  duration: (ms) =>
    bucket(ms / 60000, [1, 3, 10, 30, 60], ["lt1m", "1-3m", "3-10m", "10-30m", "30-60m", "60m+"]),
  reconnects: (n) => bucket(n, [1, 2, 4, 10], ["0", "1", "2-3", "4-9", "10+"]),
  renderSpeed: (fps) => bucket(fps, [15, 30, 50], ["lt15fps", "15-29fps", "30-49fps", "50fps+"]),
  timeTo3d: (ms) => bucket(ms / 1000, [1, 3, 10, 30], ["lt1s", "1-3s", "3-10s", "10-30s", "30s+"]),
  memory(gb) {
    if (typeof gb !== "number") return "unknown";
    return bucket(gb, [2, 4, 8], ["le1gb", "2gb", "4gb", "8gb+"]);
  },
  cores(n) {
    if (typeof n !== "number" || n < 1) return "unknown";
    return bucket(n, [3, 5, 9], ["1-2", "3-4", "5-8", "9+"]);
  },
};

// Families only, worked out here: the user-agent string itself never leaves the page.
function browserFamily(ua) {
  if (/Edg(e|A|iOS)?\//.test(ua)) return "edge";
  if (/OPR\/|Opera/.test(ua)) return "opera";
  if (/SamsungBrowser\//.test(ua)) return "samsung";
  if (/Firefox\/|FxiOS\//.test(ua)) return "firefox";
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return "chrome";
  if (/Safari\//.test(ua)) return "safari";
  return "other";
}

function osFamily(ua) {
  if (/Android/.test(ua)) return "android";
  if (/iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1)) {
    return "ios";
  }
  if (/Windows/.test(ua)) return "windows";
  if (/CrOS/.test(ua)) return "chromeos";
  if (/Macintosh|Mac OS X/.test(ua)) return "macos";
  if (/Linux|X11/.test(ua)) return "linux";
  return "other";
}

function context() {
  const ua = navigator.userAgent || "";
  const mobile = navigator.userAgentData?.mobile ?? /Mobi|iPhone|iPod|Android.*Mobile/.test(ua);
  return {
    device: mobile ? "phone" : "other",
    memory: buckets.memory(navigator.deviceMemory),
    cores: buckets.cores(navigator.hardwareConcurrency),
    browser: browserFamily(ua),
    os: osFamily(ua),
  };
}

function connectionSpeed() {
  const type = navigator.connection?.effectiveType;
  return ["slow-2g", "2g", "3g", "4g"].includes(type) ? type : "unknown";
}

// How much of the page's code (scripts and styles) came from the browser cache.
function cacheLoad() {
  const code = performance
    .getEntriesByType("resource")
    .filter((e) => ["script", "link", "css"].includes(e.initiatorType) && e.decodedBodySize > 0);
  if (code.length === 0) return "unknown";
  const cached = code.filter((e) => e.transferSize === 0).length;
  if (cached === code.length) return "all";
  return cached === 0 ? "none" : "some";
}

// --- sending ------------------------------------------------------------------

/** Queue one event; sent in batches. Does nothing at all while the switch is off. */
export function track(kind, fields = {}) {
  if (!isEnabled() || !state.endpoint) return;
  const event = { kind, ...fields };
  if (state.game && !("game" in event)) event.game = state.game;
  state.queue.push(event);
  if (state.queue.length >= MAX_BATCH) flush();
  else if (!state.timer) state.timer = setTimeout(flush, FLUSH_DELAY_MS);
}

/** Send what is queued now (also done when the page is hidden or closed). */
export function flush() {
  clearTimeout(state.timer);
  state.timer = null;
  let sent = 0;
  if (!isEnabled() || !state.endpoint) discard();
  // Offline (a trainer or rules page opened from the service worker's cache): a send could
  // only fail, with an error in the console. The batch waits for the "online" event, at
  // most MAX_HELD events of it; a page that goes while still offline takes it with it.
  if (globalThis.navigator?.onLine === false) state.queue.splice(0, state.queue.length - MAX_HELD);
  while (state.queue.length > 0 && globalThis.navigator?.onLine !== false) {
    const events = state.queue.splice(0, MAX_BATCH);
    const body = JSON.stringify({ page_view: state.pageView, ...context(), events });
    send(body);
    sent += events.length;
  }
  // A page-side hook: tests (and curious players) learn that a flush happened and how many
  // events it sent, instead of waiting to see whether a request shows up.
  globalThis.dispatchEvent?.(new CustomEvent("hyakunin:telemetry-flush", { detail: { sent } }));
}

/** Run `hook` once as the page goes, just before that last flush, so what it tracks leaves
 * with it (e.g. a count reported at the end of the page's life). */
export function beforeLeaving(hook) {
  state.leaveHooks.push(hook);
}

/** What is waiting to be sent: queued events and whether a flush is scheduled. */
export const pending = () => ({ queued: state.queue.length, scheduled: state.timer !== null });

function send(body) {
  try {
    fetch(state.endpoint, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
      keepalive: true,
      credentials: "omit",
      referrerPolicy: "no-referrer",
    }).catch(() => {});
  } catch {
    // No keepalive fetch (or it is over its quota): a beacon survives unloading too.
    navigator.sendBeacon?.(state.endpoint, new Blob([body], { type: "text/plain" }));
  }
}

// --- helpers for game pages -----------------------------------------------------

export function gameStart(mode, { game, cpuLevel, settings } = {}) {
  track("game_start", clean({ game, mode, cpu_level: cpuLevel, settings }));
}

export function gameEnd(mode, result, { game, cpuLevel, settings, moves, durationMs } = {}) {
  track(
    "game_end",
    clean({
      game,
      mode,
      result,
      cpu_level: cpuLevel,
      settings,
      moves: typeof moves === "number" ? buckets.moves(moves) : undefined,
      duration: buckets.duration(durationMs ?? 0),
    }),
  );
}

/** where: "menu" | "result" | "invite_again" */
export function roomCreated(where) {
  track("room_created", { room_origin: where });
}

/** what: "connect" | "spectate" | "seat"; ok: boolean */
export function roomOutcome(what, ok) {
  track(`room_${what}`, { outcome: ok ? "success" : "failure" });
}

export function roomReconnects(count) {
  track("room_reconnects", { reconnects: buckets.reconnects(count) });
}

/** Call before trying the 3D view, so leaving before it starts is reported. */
export function expect3d() {
  if (state.view3d === "none") state.view3d = "expected";
}

export function view3dStarted(fps) {
  if (state.view3d === "started") return;
  state.view3d = "started";
  const elapsed = performance.now() - state.openedAt;
  track(
    "view3d_start",
    clean({
      time_to_3d: buckets.timeTo3d(elapsed),
      render_speed: typeof fps === "number" ? buckets.renderSpeed(fps) : undefined,
    }),
  );
}

export function view3dFailure() {
  state.view3d = "failed";
  track("view3d_failure");
}

export function renderSpeed(fps) {
  track("render_speed", { render_speed: buckets.renderSpeed(fps) });
}

/** Count animation frames for `ms` and report the rate as a bucket; resolves to the fps. */
export function measureRenderSpeed(ms = 2000) {
  return new Promise((resolve) => {
    let frames = 0;
    const start = performance.now();
    const step = (now) => {
      frames += 1;
      if (now - start < ms) requestAnimationFrame(step);
      else {
        const fps = (frames * 1000) / (now - start);
        renderSpeed(fps);
        resolve(fps);
      }
    };
    requestAnimationFrame(step);
  });
}

export function loadFailure(kind) {
  track("load_failure", { load_failure: kind });
}

function clean(fields) {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

// --- page wiring ------------------------------------------------------------------

function leaving(why) {
  for (const hook of state.leaveHooks.splice(0)) {
    try {
      hook();
    } catch {
      /* a page's hook never keeps the batch from leaving */
    }
  }
  if (state.view3d === "expected") {
    state.view3d = "abandoned";
    track("view3d_abandon", {
      abandon: why,
      time_to_3d: buckets.timeTo3d(performance.now() - state.openedAt),
    });
  }
  flush();
}

function resourceFailure(event) {
  const tag = event.target?.tagName;
  if (!tag || event.target === window) return;
  const kinds = { SCRIPT: "script", LINK: "stylesheet", IMG: "image" };
  loadFailure(kinds[tag] ?? "other");
}

function bind() {
  const switches = document.querySelectorAll("[data-telemetry-switch]");
  if (switches.length === 0) return;
  state.endpoint = switches[0].dataset.endpoint;
  state.game = switches[0].dataset.game || null;
  for (const box of document.querySelectorAll("[data-telemetry-toggle]")) {
    box.checked = isEnabled();
    box.addEventListener("change", () => setEnabled(box.checked));
  }
  if (state.bound) return;
  state.bound = true;
  window.addEventListener("error", resourceFailure, true);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") leaving("background");
  });
  // Leaving for another page (a reload, a link, a form, closing the tab): the batch goes at
  // beforeunload, while the document is still whole. Sent from pagehide, in Chromium under
  // load, it was lost now and then, beacon and keepalive fetch alike, when the next page had
  // already taken over (tests/browser/test_telemetry_rooms.py lost a reloaded page's whole
  // batch). pagehide stays for what never fires beforeunload (phones, the back-forward
  // cache) and sends whatever came after.
  window.addEventListener("online", () => flush());
  window.addEventListener("beforeunload", () => leaving("left"));
  window.addEventListener("pagehide", () => leaving("left"));
  if (state.game) {
    const report = () => track("page_load", { connection: connectionSpeed(), cache: cacheLoad() });
    if (document.readyState === "complete") report();
    else window.addEventListener("load", report, { once: true });
  }
}

if (typeof document !== "undefined") {
  // (No document: imported by Node in the tests, for the buckets.)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
  else bind();
}
