// Each poem's memory state, scheduled by FSRS through ts-fsrs (static/vendor/ts-fsrs).
// Pure (Node-tested): times are passed in as epoch milliseconds, never read from a clock.
//
// A poem's record: { n, card, ms, seen, misses, confused: { poem: count } } where `card` is
// ts-fsrs's Card with its dates stored as milliseconds (IndexedDB and export files keep
// plain numbers), `ms` a running average of right answers' times.
import { createEmptyCard, fsrs, generatorParameters, State } from "../../vendor/ts-fsrs/index.mjs";

// No fuzz: the same answers at the same times give the same schedule (tests, two devices).
const scheduler = fsrs(generatorParameters({ enable_fuzz: false }));
export const NEW_PER_DAY = 10;
const KNOWN_STABILITY_DAYS = 7; // recalled a week on: "known"
const SPEED_WEIGHT = 0.3; // weight of the newest right answer in the running average

export const newRecord = (n) => ({ n, card: null, asked: null, first: null, ms: null, seen: 0, misses: 0, confused: {} });

function toCard(stored) {
  return { ...stored, due: new Date(stored.due), last_review: stored.last_review == null ? undefined : new Date(stored.last_review) };
}

function fromCard(card) {
  return { ...card, due: card.due.getTime(), last_review: card.last_review ? card.last_review.getTime() : null };
}

/**
 * The record after one answer: scheduled by FSRS with `rating` (grade.js), its speed and
 * misses updated; `chosen` is the poem picked instead, when it was wrong.
 */
export function review(record, { rating, ms, now, chosen = null }) {
  const card = record.card ? toCard(record.card) : createEmptyCard(new Date(now));
  const next = scheduler.next(card, new Date(now), rating).card;
  const right = rating > 1;
  const confused = { ...record.confused };
  if (!right && chosen != null && chosen !== record.n) confused[chosen] = (confused[chosen] ?? 0) + 1;
  return {
    ...record,
    card: fromCard(next),
    first: record.first ?? now,
    seen: record.seen + 1,
    misses: record.misses + (right ? 0 : 1),
    ms: right ? Math.round(record.ms == null ? ms : record.ms + SPEED_WEIGHT * (ms - record.ms)) : record.ms,
    confused,
  };
}

export function status(record) {
  if (!record?.card) return "new";
  const { state, stability } = record.card;
  if (state === State.Review && stability >= KNOWN_STABILITY_DAYS) return "known";
  return "learning";
}

/** Asked for by the player (a game's slowest or missed cards) and not reviewed since. */
const asked = (record) => record?.asked != null && !(record.card?.last_review >= record.asked);

export const isDue = (record, now) => asked(record) || (Boolean(record?.card) && record.card.due <= now);

/** The record with the poem put in today's review (from a game's result screen). */
export const ask = (record, now) => ({ ...record, asked: now });

/** The chance of recalling the poem now (FSRS retrievability), 0 for a new poem. */
export function recall(record, now) {
  if (!record?.card) return 0;
  return scheduler.get_retrievability(toCard(record.card), new Date(now), false);
}

const dueAt = (record) => (asked(record) ? record.asked : record.card.due);

/**
 * Today's review, in order: the due poems, most overdue first, then up to `newLeft` new
 * poems in poem order. `records` maps n → record; `poems` limits the queue to a set.
 */
export function dueQueue(records, now, { poems = null, newLeft = NEW_PER_DAY } = {}) {
  const numbers = poems ?? Array.from({ length: 100 }, (_, i) => i + 1);
  const due = numbers.filter((n) => isDue(records.get(n), now))
    .sort((a, b) => dueAt(records.get(a)) - dueAt(records.get(b)) || a - b);
  const fresh = numbers.filter((n) => !records.get(n)?.card && !due.includes(n)).slice(0, Math.max(0, newLeft));
  return [...due, ...fresh];
}

/** New poems still to meet today: NEW_PER_DAY less those first met since `dayStart`. */
export function newLeftToday(records, dayStart) {
  let met = 0;
  for (const r of records.values()) if (r.first != null && r.first >= dayStart) met += 1;
  return Math.max(0, NEW_PER_DAY - met);
}

/** The poems most often missed, with the poem each was most often taken for. */
export function mostMissed(records, count = 5) {
  return [...records.values()]
    .filter((r) => r.misses > 0)
    .sort((a, b) => b.misses - a.misses || a.n - b.n)
    .slice(0, count)
    .map((r) => {
      const [with_] = Object.entries(r.confused).sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [];
      return { n: r.n, misses: r.misses, seen: r.seen, confusedWith: with_ == null ? null : Number(with_) };
    });
}
