// "Only once per match in this tab": a reload is the same player in the same game, so a
// game start or end reported before the reload is not reported again. Kept in this tab's
// sessionStorage (gone when the tab closes), never sent anywhere.

const KEY = "hyakunin.reported";
const KEEP = 40;

/** True the first time `what` is asked for this match in this tab; false after. */
export function firstTime(what, matchId, storage = globalThis.sessionStorage) {
  const key = `${what}:${matchId}`;
  let seen = [];
  try { seen = JSON.parse(storage?.getItem(KEY) ?? "[]"); } catch { seen = []; }
  if (!Array.isArray(seen)) seen = [];
  if (seen.includes(key)) return false;
  try { storage?.setItem(KEY, JSON.stringify([...seen, key].slice(-KEEP))); } catch { /* not remembered */ }
  return true;
}
