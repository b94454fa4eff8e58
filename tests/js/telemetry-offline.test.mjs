// node --test: what static/js/telemetry.js does with a batch while the browser is offline
// (a trainer or rules page opened from the service worker's cache): nothing is sent — a
// send could only fail, with a console error — and the batch goes once the browser is back.
import assert from "node:assert/strict";
import { test } from "node:test";

// The module keeps its state on globalThis (one state per page): given an endpoint here, as
// bind() gives it from the page's switch.
globalThis[Symbol.for("hyakunin.telemetry")] = {
  pageView: "0".repeat(32), queue: [], timer: null, endpoint: "/api/telemetry/", game: null,
  openedAt: 0, view3d: "none", bound: true, leaveHooks: [],
};
const sent = [];
globalThis.fetch = (url, init) => {
  sent.push(JSON.parse(init.body).events.map((e) => e.kind));
  return Promise.resolve({ ok: true });
};
const network = { onLine: true };
Object.defineProperty(globalThis, "navigator", { value: network, configurable: true });

const { flush, pending, track } = await import("../../static/js/telemetry.js");

test("offline, a flush sends nothing and keeps the batch; back online it all goes", () => {
  network.onLine = false;
  track("drill_start");
  track("drill_end");
  flush();
  assert.deepEqual(sent, []);
  assert.equal(pending().queued, 2);
  network.onLine = true;
  flush();
  assert.deepEqual(sent, [["drill_start", "drill_end"]]);
  assert.equal(pending().queued, 0);
  sent.length = 0;
});

test("a long offline spell keeps only the newest 200 events", () => {
  network.onLine = false;
  for (let i = 0; i < 260; i += 1) track(i < 60 ? "old" : "new");
  flush();
  assert.equal(pending().queued, 200);
  network.onLine = true;
  flush();
  assert.equal(sent.flat().length, 200);
  assert.ok(sent.flat().every((kind) => kind === "new"));
  sent.length = 0;
});
