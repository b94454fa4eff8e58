// node --test: the trainer's IndexedDB schema and its early open (static/js/trainer/db.js, used
// by open-early.js in the page's head and by store.js), on a fake indexedDB.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NAME, readPoems, requestOpen, VERSION } from "../../static/js/trainer/db.js";

/** A fake indexedDB whose open() answers on the next tick: upgrade then success, or an error. */
function fakeIDB({ fresh = true, error = null } = {}) {
  const opened = [];
  const stores = [];
  const db = { createObjectStore: (name, options) => stores.push([name, options ?? null]) };
  return {
    opened,
    stores,
    db,
    open(name, version) {
      opened.push([name, version]);
      const request = { result: db, error };
      setTimeout(() => {
        if (error) return request.onerror();
        if (fresh) request.onupgradeneeded();
        request.onsuccess();
      });
      return request;
    },
  };
}

test("a first open creates the two stores and resolves to the database", async () => {
  const idb = fakeIDB();
  assert.equal(await requestOpen(idb), idb.db);
  assert.deepEqual(idb.opened, [[NAME, VERSION]]);
  assert.deepEqual(idb.stores, [["poems", { keyPath: "n" }], ["log", null]]);
});

test("a later open creates nothing", async () => {
  const idb = fakeIDB({ fresh: false });
  assert.equal(await requestOpen(idb), idb.db);
  assert.deepEqual(idb.stores, []);
});

test("a refused open (private mode, blocked) rejects with the request's error", async () => {
  const refused = new Error("denied");
  await assert.rejects(requestOpen(fakeIDB({ error: refused })), refused);
});

test("no indexedDB at all rejects instead of throwing where the page's head starts it", async () => {
  const opening = requestOpen(null);
  assert.ok(opening instanceof Promise);
  await assert.rejects(opening, /no IndexedDB/);
});

test("the first read gets every poem's record from the poems store", async () => {
  const rows = [{ n: 1 }, { n: 87 }];
  const asked = [];
  const db = {
    transaction(name) {
      asked.push(name);
      return {
        objectStore: (store) => ({
          getAll() {
            const request = { result: store === "poems" ? rows : null };
            setTimeout(() => request.onsuccess());
            return request;
          },
        }),
      };
    },
  };
  assert.deepEqual(await readPoems(db), rows);
  assert.deepEqual(asked, ["poems"]);
});
