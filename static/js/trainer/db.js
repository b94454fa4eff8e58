// The trainer's IndexedDB schema, shared by store.js (through idb) and open-early.js (the raw
// API, so that file stays a few hundred bytes): one place says the name, version and stores,
// and how the page's first read is made.
export const NAME = "hyakunin-trainer";
export const VERSION = 1;

/** Create the stores on a first visit (`d` is an IDBDatabase, raw or wrapped by idb). */
export function upgrade(d) {
  d.createObjectStore("poems", { keyPath: "n" });
  d.createObjectStore("log"); // chunk number → { count, data }
}

/** Start opening the database now: a promise of the raw IDBDatabase (rejects when there is none). */
export function requestOpen(idb = globalThis.indexedDB) {
  return new Promise((resolve, reject) => {
    if (!idb) throw new Error("no IndexedDB");
    const request = idb.open(NAME, VERSION);
    request.onupgradeneeded = () => upgrade(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Read every poem's record straight away (`db` raw): the page's first read, started with the open. */
export function readPoems(db) {
  return new Promise((resolve, reject) => {
    const request = db.transaction("poems").objectStore("poems").getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
