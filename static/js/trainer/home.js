// The home page's "Today's review: N cards", counted from this browser's trainer progress.
import { fmt } from "../text.js";
import { dueQueue, newLeftToday } from "./schedule.js";
import { openStore } from "./store.js";

async function main() {
  const target = document.getElementById("trainer-due");
  const msg = JSON.parse(document.getElementById("trainer-due-messages").textContent);
  const store = await openStore();
  const records = await store.load();
  const now = Date.now();
  const n = dueQueue(records, now, { newLeft: newLeftToday(records, new Date(now).setHours(0, 0, 0, 0)) }).length;
  target.textContent = fmt(n === 1 ? msg.one : msg.many, { n });
  target.hidden = false;
}

main();
