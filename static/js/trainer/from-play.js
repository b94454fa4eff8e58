// From play to practice: the karuta result screen puts the player's missed and slowest
// cards in today's review of the trainer (this browser's store; nothing is sent).
import { fmt } from "../text.js";
import { ask, newRecord } from "./schedule.js";
import { openStore } from "./store.js";

/**
 * The cards to review from a solo game's records ({ poem, t, wrong, after_kimariji }):
 * missed first, then those with a wrong card touched, then the slowest; at most `count`.
 */
export function picks(records, count = 10) {
  const rank = (r) => (r.t === null ? 0 : r.wrong?.length ? 1 : 2);
  return records
    .slice()
    .sort((a, b) => rank(a) - rank(b) || (b.after_kimariji ?? 0) - (a.after_kimariji ?? 0) || a.poem - b.poem)
    .slice(0, count)
    .map((r) => r.poem);
}

/** Put `poems` in today's review; resolves to how many were added. */
export async function addToReview(poems, now = Date.now()) {
  const store = await openStore();
  const records = await store.load();
  for (const n of poems) await store.save(ask(records.get(n) ?? newRecord(n), now));
  return poems.length;
}

/** Show the result screen's button ([data-trainer-add]) for these game records. */
export function offerReview(records) {
  const button = document.querySelector("[data-trainer-add]");
  const status = document.querySelector("[data-trainer-added]");
  if (!button) return;
  const poems = picks(records);
  button.hidden = poems.length === 0;
  button.disabled = false;
  status.textContent = "";
  button.onclick = async () => {
    button.disabled = true;
    const n = await addToReview(poems);
    status.textContent = fmt(button.dataset.done, { n });
  };
}
