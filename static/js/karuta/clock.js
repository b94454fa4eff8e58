// The reader's clock and its schedule. Pure (Node-tested): the time source is passed in.
//
// Time base (games/karuta/reading.py): t = 0 is the moment the first kana of the upper
// verse is shown. The clock is the server's: a state frame says when its state began
// (`at`, server epoch ms) and the reading when its t = 0 lies after that (`t0`), so the
// reading time is serverNow - (at + t0), serverNow being the page's clock corrected by
// the ping/pong estimate (clock-sync.js). Every touch carries its time on that clock.
//
// The server releases the reading as it goes (games/karuta/release.py): `kana` holds the
// upper verse's kana due so far ([text, t, said]), `shimo.kana` the lower verse's, and the
// poem, its kimariji, `decided` and `close` stay null until the deciding kana is released.

/** The same rhythm as reading.verse_timing: one unit per kana, 2.5 units between phrases. */
export function verseTimes(text, unit) {
  const times = [];
  let t = 0;
  text.split(" ").forEach((phrase, i) => {
    if (i) t += 2.5 * unit;
    for (const _ of phrase) { times.push(Math.round(t)); t += unit; }
  });
  return times;
}

/** How many kana are shown at time t, given each one's time. */
export function shownKana(times, t) {
  let n = 0;
  while (n < times.length && times[n] <= t) n += 1;
  return n;
}

/** Where a reading's t = 0 lies on the server's clock (epoch ms). */
export const readingBase = (at, r) => at + r.t0;

/** A reading on the server's clock: {number, r, base, shownTouches, passed, spoken}. */
export function startReading(r, base) {
  return { number: r.number, r, base, shownTouches: new Set(), passed: false, spoken: new Set() };
}

/** The reading time at server time `serverNow` (−Infinity with no reading). */
export const timeOn = (cur, serverNow) => (cur ? Math.round(serverNow - cur.base) : -Infinity);

/** How often to ping (ms) so the clock estimate stays fresh: while a reading is on, and
 * also before one is (memorising, sending a card), since the first kana and clip of the
 * coming reading are placed on the estimate as it stands then. null: the heartbeat's pace. */
export const SYNC_MS = 2000;
export const syncInterval = (view) => (["memorise", "reading", "send"].includes(view?.phase) ? SYNC_MS : null);

/** The released kana due by time t ([text, t, said] entries, in order). */
export const dueKana = (entries, t) => (entries ?? []).filter(([, at]) => at <= t);

/**
 * How long to hold a frame that settles the current reading before the reader's clock has
 * reached the moment it was settled (the take, or the close when nobody took): the page
 * never shows a result before the reading it ends got there. At most a minute.
 */
export function holdMs(frame, cur, t) {
  if (!cur) return 0;
  for (const entry of frame.events) {
    for (const event of entry.events) {
      if (event.type === "result" && event.number === cur.number) {
        const at = event.t ?? cur.r.close;
        if (at === null || at === undefined) return 0; // the reading was never decided here
        const wait = at - t;
        return wait > 0 ? Math.min(wait, 60000) : 0;
      }
    }
  }
  return 0;
}

/** What the reading lines show at time t: {prev, part, upper, shown, decided, lower}. */
export function readingAt(r, t, markKimariji) {
  const out = { prev: "", part: null, upper: [], shown: 0, decided: 0, lower: "" };
  const seg = r.preamble.find((p) => p.kana && p.start <= t && t < p.end + r.unit * 15) ?? null;
  if (seg && t < 0) {
    const flat = seg.kana.replace(/ /g, "");
    out.prev = flat.slice(0, shownKana(verseTimes(seg.kana, r.unit).map((x) => x + seg.start), t));
    out.part = seg.part;
  }
  if (t < 0) return out;
  out.upper = dueKana(r.kana, t).map(([text]) => text);
  out.shown = out.upper.length;
  const known = r.decided !== null && r.decided !== undefined;
  out.decided = known && t >= r.decided && markKimariji ? Math.min(out.shown, r.kimariji) : 0;
  if (r.shimo) out.lower = dueKana(r.shimo.kana, t).map(([text]) => text).join("");
  return out;
}

/** "m:ss" for the memorisation countdown. */
export const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

export const secs = (ms) => (ms / 1000).toFixed(2);

/** Arranging your side is allowed until this long before the upper verse (t = -150). */
export const ARRANGE_UNTIL = -150;

/**
 * The first reading time after t at which anything the page shows or does for reading r
 * can change (Infinity: nothing more is due): a kana of the preamble, the upper or the
 * lower verse due, a preamble line appearing or going, the poem's deciding kana, t = 0 and
 * ARRANGE_UNTIL (the prompt), the lower verse read again, a touch shown (and passed after),
 * the close passed. The clock's duties are woken then (frame-loop.js), not every frame.
 */
export function nextChange(r, t) {
  let next = Infinity;
  const at = (x) => { if (Number.isFinite(x) && x > t && x < next) next = x; };
  at(ARRANGE_UNTIL);
  at(0);
  for (const seg of r.preamble ?? []) {
    at(seg.start);
    at(seg.end);
    at(seg.end + r.unit * 15);
    if (seg.kana) for (const x of verseTimes(seg.kana, r.unit)) at(x + seg.start);
  }
  for (const [, x] of r.kana ?? []) at(x);
  for (const [, x] of r.shimo?.kana ?? []) at(x);
  at(r.shimo?.again?.start);
  at(r.decided);
  if (r.close !== null && r.close !== undefined) at(r.close + 1); // passed once beyond it
  for (const [, , x] of r.touches ?? []) { at(x); at(x + 1); }
  return next;
}
