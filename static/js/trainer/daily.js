// The poem of the day, the same for everyone on a date: the twin of platform/poems/daily.py
// (Japan's calendar date; every poem once per 100 days, shuffled by mulberry32 from the run
// number). Pure (Node-tested, and checked against the Python by tests/games/karuta).

const JAPAN_OFFSET_MS = 9 * 3600 * 1000;
const DAY_MS = 86400 * 1000;
const EPOCH_MS = Date.UTC(2000, 0, 1);
const POEMS = 100;

export function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Days from 1 January 2000 to the date it is in Japan at `ms` (epoch milliseconds). */
export function japanDayNumber(ms) {
  return Math.floor((ms + JAPAN_OFFSET_MS - EPOCH_MS) / DAY_MS);
}

export function order(run) {
  const numbers = Array.from({ length: POEMS }, (_, i) => i + 1);
  const rand = mulberry32(run);
  for (let i = numbers.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [numbers[i], numbers[j]] = [numbers[j], numbers[i]];
  }
  return numbers;
}

export function poemOfDay(day) {
  return order(Math.floor(day / POEMS))[((day % POEMS) + POEMS) % POEMS];
}
