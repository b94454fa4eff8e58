// node --test: the screen is kept on while wanted, asked for again when the tab returns,
// and let go after; a missing or refusing API changes nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ScreenAwake } from "../../static/js/wake-lock.js";

function fakes({ refuse = false } = {}) {
  const log = [];
  const doc = { visibilityState: "visible", listeners: [], addEventListener(name, fn) { this.listeners.push(fn); } };
  const api = {
    async request(type) {
      log.push(`request ${type}`);
      if (refuse) throw new Error("NotAllowedError");
      const listeners = [];
      return {
        addEventListener: (name, fn) => listeners.push(fn),
        release: async () => { log.push("release"); },
        drop() { for (const fn of listeners) fn(); }, // what the browser does on a hidden tab
      };
    },
  };
  return { log, doc, api };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("held once while wanted, released when not", async () => {
  const { log, doc, api } = fakes();
  const awake = new ScreenAwake({ api, doc });
  awake.want(true);
  await settle();
  awake.want(true);
  await settle();
  assert.deepEqual(log, ["request screen"]);
  awake.want(false);
  await settle();
  assert.deepEqual(log, ["request screen", "release"]);
  assert.equal(awake.sentinel, null);
});

test("asked for again when the tab comes back, not while it is hidden", async () => {
  const { log, doc, api } = fakes();
  const awake = new ScreenAwake({ api, doc });
  awake.want(true);
  await settle();
  doc.visibilityState = "hidden";
  awake.sentinel.drop();
  for (const fn of doc.listeners) fn();
  await settle();
  assert.deepEqual(log, ["request screen"]);
  doc.visibilityState = "visible";
  for (const fn of doc.listeners) fn();
  await settle();
  assert.deepEqual(log, ["request screen", "request screen"]);
});

test("a game that ends while the browser answers lets the lock go at once", async () => {
  const { log, doc, api } = fakes();
  const awake = new ScreenAwake({ api, doc });
  awake.want(true);
  awake.want(false);
  await settle();
  await settle();
  assert.deepEqual(log, ["request screen", "release"]);
});

test("no API, or a refusal, is not an error", async () => {
  const none = new ScreenAwake({ api: undefined, doc: fakes().doc });
  none.want(true);
  none.want(false);
  const { log, doc, api } = fakes({ refuse: true });
  const refused = new ScreenAwake({ api, doc });
  refused.want(true);
  await settle();
  assert.deepEqual(log, ["request screen"]);
  assert.equal(refused.sentinel, null);
});
