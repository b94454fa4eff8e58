// Where the trainer keeps progress: IndexedDB in this browser, never sent anywhere.
// One record per poem ("poems", keyed by n) and the review log ("log": [time, poem,
// rating, ms, drill code] arrays, compact so 10,000 reviews stay small). When IndexedDB
// cannot be opened (private mode, blocked, full) the same interface keeps everything in
// memory for the session, and `persistent` is false so the page can say so.
import { openDB } from "../../vendor/idb/index.js";

const NAME = "hyakunin-trainer";
const VERSION = 1;

function memoryStore(reason) {
  let records = new Map();
  let log = [];
  return {
    persistent: false,
    reason,
    async load() { return new Map(records); },
    async save(record, entry) { records.set(record.n, record); if (entry) log.push(entry); },
    async loadLog() { return [...log]; },
    async replace(next, nextLog) { records = new Map(next); log = [...nextLog]; },
    async clear() { records = new Map(); log = []; },
  };
}

async function indexedStore() {
  const db = await openDB(NAME, VERSION, {
    upgrade(d) {
      d.createObjectStore("poems", { keyPath: "n" });
      d.createObjectStore("log", { autoIncrement: true });
    },
  });
  // A write that fails later (quota) turns the store into a session-only one.
  const store = {
    persistent: true,
    reason: null,
    async load() {
      return new Map((await db.getAll("poems")).map((r) => [r.n, r]));
    },
    async save(record, entry) {
      const tx = db.transaction(["poems", "log"], "readwrite");
      tx.objectStore("poems").put(record);
      if (entry) tx.objectStore("log").add(entry);
      await tx.done;
    },
    loadLog: () => db.getAll("log"),
    async replace(records, log) {
      const tx = db.transaction(["poems", "log"], "readwrite");
      const poems = tx.objectStore("poems");
      const logStore = tx.objectStore("log");
      poems.clear();
      logStore.clear();
      for (const r of records.values()) poems.put(r);
      for (const e of log) logStore.add(e);
      await tx.done; // one transaction: a failed import leaves the old progress whole
    },
    async clear() {
      const tx = db.transaction(["poems", "log"], "readwrite");
      tx.objectStore("poems").clear();
      tx.objectStore("log").clear();
      await tx.done;
    },
  };
  return store;
}

/** The browser's store, or a session-only one (with its reason) when there is none. */
export async function openStore() {
  if (!globalThis.indexedDB) return memoryStore("unavailable");
  try {
    return await indexedStore();
  } catch {
    return memoryStore("unavailable");
  }
}

/** Wrap a store so a failing write (storage full) falls back to memory, keeping the data. */
export function resilient(store, onFallback) {
  let current = store;
  const guard = (name) => async (...args) => {
    try {
      return await current[name](...args);
    } catch {
      if (!current.persistent) throw new Error("session store failed");
      const records = await current.load().catch(() => new Map());
      const log = await current.loadLog().catch(() => []);
      current = memoryStore("full");
      await current.replace(records, log);
      onFallback(current.reason);
      return current[name](...args);
    }
  };
  return {
    get persistent() { return current.persistent; },
    get reason() { return current.reason; },
    load: guard("load"), save: guard("save"), loadLog: guard("loadLog"), replace: guard("replace"), clear: guard("clear"),
  };
}
