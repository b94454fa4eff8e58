// The reader's clock and its schedule. Pure (Node-tested): the time source is passed in.
//
// Time base (games/karuta/reading.py): t = 0 is the moment the first kana of the upper
// verse is shown. When a new reading arrives, the page starts the reading's clock at the
// preamble's first (negative) time, so the poem appears at its t = 0; every touch it sends
// carries the time on that same clock.

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

/** A reading on the reader's clock: {number, r, t0, shownTouches, passed, spoken}. */
export function startReading(r, now) {
  return { number: r.number, r, t0: now - r.preamble[0].start, shownTouches: new Set(), passed: false, spoken: new Set() };
}

export const timeOn = (cur, now) => (cur ? Math.round(now - cur.t0) : -Infinity);

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
        const wait = at - t;
        return wait > 0 ? Math.min(wait, 60000) : 0;
      }
    }
  }
  return 0;
}

/** What the reading lines show at time t: {prev, part, shown, decided, lower}. */
export function readingAt(r, t, markKimariji) {
  const out = { prev: "", part: null, shown: 0, decided: 0, lower: "" };
  const seg = r.preamble.find((p) => p.kana && p.start <= t && t < p.end + r.unit * 15) ?? null;
  if (seg && t < 0) {
    const flat = seg.kana.replace(/ /g, "");
    out.prev = flat.slice(0, shownKana(verseTimes(seg.kana, r.unit).map((x) => x + seg.start), t));
    out.part = seg.part;
  }
  if (t < 0) return out;
  out.shown = shownKana(r.kami.t, t);
  out.decided = t >= r.decided && markKimariji ? Math.min(out.shown, r.kimariji) : 0;
  if (r.shimo) out.lower = r.shimo.kana.slice(0, shownKana(r.shimo.t, t)).join("");
  return out;
}

/** "m:ss" for the memorisation countdown. */
export const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

export const secs = (ms) => (ms / 1000).toFixed(2);
