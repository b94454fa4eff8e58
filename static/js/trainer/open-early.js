// The trainer page's first script (static/dist/trainer-open.js, built as a classic script and
// placed in the head before the stylesheets): opening IndexedDB is the slowest step of a
// first visit (it creates the database), so it starts here, before the first layout and before
// the page's bundle is even evaluated, and runs in the browser's storage code while the page
// is laid out; the first read of the poems' records follows it at once. page.js takes both
// promises from `globalThis.trainerOpening` (store.js `openStore(early)`). As an async module
// with blocking="render" it ran only after the bundle.
import { readPoems, requestOpen } from "./db.js";

performance.mark("trainer-open"); // the bench's breakdown: when the database starts opening
const db = requestOpen();
const poems = db.then(readPoems); // and the poems' records, read as soon as it is open
db.then(() => performance.mark("trainer-opened"), () => {});
poems.catch(() => {}); // a refusal (private mode) is handled where it is awaited
globalThis.trainerOpening = { db, poems };
