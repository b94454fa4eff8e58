// Where the trainer keeps progress: IndexedDB in this browser, never sent anywhere.
// One record per poem ("poems", keyed by n) and the review log: entries [time, poem,
// rating, ms, drill code] packed CHUNK at a time into Float64Arrays ("log", keyed by chunk
// number), so 10,000 reviews are 40 binary values to read back, not 10,000 objects. When IndexedDB
// cannot be opened (private mode, blocked, full) the same interface keeps everything in
// memory for the session, and `persistent` is false so the page can say so.
import { openDB, wrap } from "../../vendor/idb/index.js";
import { NAME, VERSION, upgrade } from "./db.js";

const CHUNK = 256; // log entries per stored chunk
const FIELDS = 5;

/** The log's entries packed into chunks: [{ count, data: Float64Array }]. */
export function packLog(log) {
  const chunks = [];
  for (let i = 0; i < log.length; i += CHUNK) {
    const part = log.slice(i, i + CHUNK);
    const data = new Float64Array(CHUNK * FIELDS);
    part.forEach((entry, j) => data.set(entry, j * FIELDS));
    chunks.push({ count: part.length, data });
  }
  return chunks;
}

// Each entry read field by field (its FIELDS = 5): Array.from(data.subarray(...)), a view and
// an iterator per entry, took ~150 ms for 10,000 entries in Node where this takes ~5.
export function unpackLog(chunks) {
  const log = [];
  for (const { count, data: d } of chunks) {
    for (let o = 0, end = count * FIELDS; o < end; o += FIELDS) log.push([d[o], d[o + 1], d[o + 2], d[o + 3], d[o + 4]]);
  }
  return log;
}

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

async function indexedStore(early) {
  const db = early ? wrap(await early.db) : await openDB(NAME, VERSION, { upgrade });
  let firstRead = early?.poems; // the head's read, made as the database opened: used once
  // The last chunk stays in memory: an answer appends to it and writes that one chunk. It
  // is read on the first answer, inside that answer's transaction, not while the page opens.
  let last; // undefined: not read yet; null: no log yet; else { key, count, data }
  const append = async (logStore, entry) => {
    if (last === undefined) {
      const cursor = await logStore.openCursor(null, "prev");
      last = cursor ? { key: cursor.key, ...cursor.value } : null;
    }
    if (!last || last.count === CHUNK) last = { key: last ? last.key + 1 : 0, count: 0, data: new Float64Array(CHUNK * FIELDS) };
    last.data.set(entry, last.count * FIELDS);
    last.count += 1;
    await logStore.put({ count: last.count, data: last.data }, last.key);
  };
  const store = {
    persistent: true,
    reason: null,
    async load() {
      const early = firstRead;
      firstRead = null;
      const rows = (early && (await early.catch(() => null))) ?? (await db.getAll("poems"));
      return new Map(rows.map((r) => [r.n, r]));
    },
    async save(record, entry) {
      const tx = db.transaction(["poems", "log"], "readwrite");
      tx.objectStore("poems").put(record);
      if (entry) await append(tx.objectStore("log"), entry);
      await tx.done;
    },
    loadLog: async () => unpackLog(await db.getAll("log")),
    async replace(records, log) {
      const tx = db.transaction(["poems", "log"], "readwrite");
      const poems = tx.objectStore("poems");
      const logStore = tx.objectStore("log");
      poems.clear();
      logStore.clear();
      for (const r of records.values()) poems.put(r);
      const chunks = packLog(log);
      chunks.forEach((chunk, key) => logStore.put(chunk, key));
      await tx.done; // one transaction: a failed import leaves the old progress whole
      last = chunks.length ? { key: chunks.length - 1, ...chunks[chunks.length - 1] } : null;
    },
    async clear() {
      const tx = db.transaction(["poems", "log"], "readwrite");
      tx.objectStore("poems").clear();
      tx.objectStore("log").clear();
      await tx.done;
      last = null;
    },
  };
  return store;
}

/** The browser's store, or a session-only one (with its reason) when there is none. `early`:
 * the database already being opened and its poems read (open-early.js: `{ db, poems }`, both
 * promises; db.js `requestOpen`, `readPoems`). */
export async function openStore(early = null) {
  if (!globalThis.indexedDB) return memoryStore("unavailable");
  try {
    return await indexedStore(early);
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
