// The kimariji trainer page: loads the poems and this browser's progress, then wires today's
// review, the drill menu, the keyboard and the data buttons. Nothing here is ever sent.
import { mulberry32 } from "./daily.js";
import { startDrill } from "./drill.js";
import { wireData } from "./data-panel.js";
import { staticLengths } from "./lookalikes.js";
import { dueQueue, newLeftToday, newRecord, recall } from "./schedule.js";
import { DRILLS, indexPoems } from "./session.js";
import { buildSets, findSet, sessionCards } from "./sets.js";
import { openStore, resilient } from "./store.js";
import { dueText, drawCell, drawGrid, drawMissed, drawSetMenu } from "./view.js";
import { wireKeys } from "./keyboard.js";
import { isMuted, kimarijiVoice, setMuted } from "./voice.js";

const $ = (id) => document.getElementById(id);
const json = (id) => JSON.parse($(id).textContent);

const startOfToday = (now) => new Date(now).setHours(0, 0, 0, 0);

// The trainer opens offline, so its voice should too: with the voice on, the service worker
// (pages/sw.js "keep") is asked to keep every clip of the table (146 files, 1.43 MiB; those
// it holds already are skipped), not only those heard so far. Muted, nothing is fetched.
async function keepClipsOffline(table) {
  if (isMuted() || !("serviceWorker" in navigator)) return;
  try {
    const { active } = await navigator.serviceWorker.ready;
    const urls = [...new Set(Object.values(table).flat().map(([url]) => url))];
    if (urls.length) active?.postMessage({ type: "keep", urls });
  } catch { /* no worker: the clips are fetched when heard, as online */ }
}

function wireVoiceToggle(app, table) {
  const toggle = $("voice-toggle");
  toggle.hidden = !app.voice.available;
  toggle.setAttribute("aria-pressed", String(!isMuted()));
  toggle.addEventListener("click", () => {
    const muted = !isMuted();
    setMuted(muted);
    toggle.setAttribute("aria-pressed", String(!muted));
    if (muted) app.voice.stop();
    else keepClipsOffline(table);
  });
}

async function main() {
  performance.mark("trainer-start");
  // IndexedDB has been opening since the page's head (open-early.js); without that script
  // (an old cached page), it opens now, while the sets are computed.
  const opening = openStore(globalThis.trainerOpening);
  const data = json("trainer-data");
  const msg = json("trainer-messages");
  const lengths = staticLengths(data.poems);
  const byN = indexPoems(data, lengths);
  const sets = buildSets(data, lengths);
  const voiceTable = json("trainer-voice");
  const app = {
    byN,
    msg,
    store: null, // once IndexedDB is open: the menu and the keys are wired while it opens
    rand: mulberry32((Math.random() * 2 ** 32) >>> 0),
    records: new Map(),
    drill: null,
    voice: kimarijiVoice(voiceTable),
    voiceOn: () => !isMuted(),
    onRecord(record) { drawCell(byN.get(record.n), record, Date.now(), msg); },
    onEnd() { app.drill = null; refresh(); },
  };

  function storageNote(reason) {
    const note = $("storage-note");
    note.textContent = msg.sessionOnly[reason];
    note.hidden = false;
  }

  async function load() {
    const saved = await app.store.load();
    app.records = new Map([...byN.keys()].map((n) => [n, saved.get(n) ?? newRecord(n)]));
  }

  const queue = () => {
    const now = Date.now();
    return dueQueue(app.records, now, { newLeft: newLeftToday(app.records, startOfToday(now)) });
  };

  function refresh() {
    const now = Date.now();
    const due = queue();
    $("due-count").textContent = dueText(due.length, msg);
    $("start-review").disabled = due.length === 0;
    drawGrid(byN, app.records, now, msg);
    drawMissed(byN, app.records, msg);
  }

  function run(drill, cards, clockMs = null) {
    if (cards.length === 0) {
      $("summary-text").textContent = msg.none;
      $("summary").hidden = false;
      return;
    }
    app.drill = startDrill(app, { drill, cards, clockMs });
  }

  drawSetMenu($("drill-set"), sets, msg);
  const form = $("drill-form");
  const kind = $("drill-kind");
  const showClock = () => {
    const timed = kind.value === "nagashi";
    for (const node of form.querySelectorAll("[data-for=clock]")) node.hidden = !timed;
    for (const node of form.querySelectorAll("[data-for=count]")) node.hidden = timed;
  };
  kind.addEventListener("change", showClock);
  showClock();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (app.drill?.running) return;
    const drill = DRILLS.includes(kind.value) ? kind.value : "choose";
    const set = findSet(sets, $("drill-set").value);
    const now = Date.now();
    const timed = drill === "nagashi";
    const count = timed ? set.poems.length : Number($("drill-count").value) || 10;
    const cards = sessionCards(set, {
      count,
      isDue: (n) => dueQueue(app.records, now, { poems: [n], newLeft: 0 }).length > 0,
      isNew: (n) => !app.records.get(n).card,
      recall: (n) => recall(app.records.get(n), now),
      rand: app.rand,
    });
    run(drill, cards, timed ? Number($("drill-clock").value) || 60000 : null);
  });
  $("start-review").addEventListener("click", () => run("choose", queue()));
  $("stop-drill").addEventListener("click", () => app.drill?.stop());
  $("drill-options").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-poem]");
    if (button) app.drill?.answer({ chosen: Number(button.dataset.poem) });
  });
  $("drill-typed").addEventListener("submit", (event) => {
    event.preventDefault();
    app.drill?.answer({ typed: $("drill-input").value });
  });
  wireKeys(app);
  wireVoiceToggle(app, voiceTable);
  performance.mark("trainer-data"); // the bench's breakdown: poems read, sets computed, menu wired

  const store = resilient(await opening, (reason) => storageNote(reason));
  app.store = store;
  if (!store.persistent) storageNote(store.reason);
  wireData(app, { reload: async () => { await load(); refresh(); } });
  await load();
  performance.mark("trainer-store"); // progress read
  refresh();
  $("start-drill").disabled = false;
  performance.mark("trainer-ready"); // bench/bench_trainer.py: time to interactive
  document.documentElement.dataset.trainerReady = "1"; // tests and the speed bench wait on this
  if (app.voice.available) keepClipsOffline(voiceTable); // after the page is ready: no hurry
  document.dispatchEvent(new CustomEvent("trainer:ready"));
}

main();
