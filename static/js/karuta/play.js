// The karuta play screen: competitive (you against a CPU), chirashi (you and 1–3 CPUs)
// and solo practice, over the shared match WebSocket.
//
// Time base (games/karuta/reading.py): t = 0 is the moment the first kana of the upper
// verse is shown. When a new reading arrives, the page starts the reading's clock at the
// preamble's first (negative) time, so the poem appears at its t = 0; every touch it sends
// carries the time on that same clock. Other seats' touches are in the view as soon as they
// are sent; the page shows each one only when its own clock reaches the touch's time, and
// it never shows the poem being read before t = 0. A frame that settles the reading before
// the reader's clock got there (you sat out) is held until that time comes.

import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import { seatName as nameOf } from "../seats.js";
import * as telemetry from "../telemetry.js";
import { cap, fmt } from "../text.js";

const config = JSON.parse(document.getElementById("match-config").textContent);
const CARDS = JSON.parse(document.getElementById("karuta-cards").textContent);
const S = JSON.parse(document.getElementById("karuta-strings").textContent);
const $ = (sel) => document.querySelector(sel);
const COLOURS = ["red", "blue", "green", "yellow"];
const now = () => performance.now();
const secs = (ms) => (ms / 1000).toFixed(2);

let view = null;
let match = null;
let startedAt = null;
let ended = false;
let cur = null; // the reading on the reader's clock: {number, r, t0, shownTouches, passed, spoken}
const frames = []; // frames waiting to be applied (see holdMs)
let holdTimer = null;
let memoriseEnd = null;
let readySent = false;
let pendingArrange = null;
let sendPending = false;
let lastFocusCard = null;
const soloRows = new Set();

// --- helpers -----------------------------------------------------------------------

const you = () => (view ? view.you : null);
const seatName = (seat) => cap(nameOf(S.colours, match, seat));
const cpuLevel = () => match?.seats.find((s) => s.kind === "cpu")?.cpu_level ?? undefined;
const tNow = () => (cur ? Math.round(now() - cur.t0) : -Infinity);
const firstPhrase = (poem) => CARDS[poem].tori.split(" ")[0];
const cardLabel = (poem) => `「${firstPhrase(poem)}…」`;

function seatLabel(seat) {
  const info = match?.seats[seat];
  let label = seatName(seat);
  if (seat === you()) label += ` (${S.you})`;
  else if (info?.kind === "cpu") label += ` (${S.cpu} ${S.levels[info.cpu_level] ?? ""})`.replace(" )", ")");
  return label;
}

function active() {
  const r = view?.reading;
  return Boolean(r && view.phase === "reading" && r.active.includes(you()) && !r.done.includes(you()));
}

function myTouches() {
  const r = view?.reading;
  return r ? r.touches.filter(([s]) => s === you()) : [];
}

// Every card a seat can see, in a layout-independent way: {poem: place}.
function ownRows() {
  return view.sides[you()];
}

// --- reading display ------------------------------------------------------------------

// The same rhythm as reading.verse_timing: one unit per kana, 2.5 units between phrases.
function verseTimes(text, unit) {
  const times = [];
  let t = 0;
  text.split(" ").forEach((phrase, i) => {
    if (i) t += 2.5 * unit;
    for (const _ of phrase) { times.push(Math.round(t)); t += unit; }
  });
  return times;
}

function shownKana(kana, times, t) {
  let n = 0;
  while (n < times.length && times[n] <= t) n += 1;
  return n;
}

function renderReading() {
  const lineBox = $("[data-reading-line]");
  const prevBox = $("[data-reading-prev]");
  const lowerBox = $("[data-reading-lower]");
  lineBox.parentElement.hidden = !cur;
  if (!cur) { lineBox.textContent = ""; prevBox.textContent = ""; lowerBox.textContent = ""; return; }
  const { r } = cur;
  const t = tNow();
  // Preamble: the previous poem's lower verse (or the opening poem), kana by kana.
  const seg = r.preamble.find((p) => p.kana && p.start <= t && t < p.end + r.unit * 15) ?? null;
  if (seg && t < 0) {
    const flat = seg.kana.replace(/ /g, "");
    const n = shownKana(flat, verseTimes(seg.kana, r.unit).map((x) => x + seg.start), t);
    prevBox.textContent = flat.slice(0, n);
    prevBox.dataset.part = seg.part;
  } else {
    prevBox.textContent = "";
  }
  if (t < 0) { lineBox.replaceChildren(); lowerBox.textContent = ""; return; }
  const n = shownKana(r.kami.kana, r.kami.t, t);
  const kimariji = t >= r.decided && markKimariji() ? r.kimariji : 0;
  const decided = document.createElement("mark");
  decided.className = "kimariji";
  decided.textContent = r.kami.kana.slice(0, Math.min(n, kimariji)).join("");
  const rest = document.createTextNode(r.kami.kana.slice(Math.min(n, kimariji), n).join(""));
  lineBox.replaceChildren(...(kimariji ? [decided] : []), rest);
  lineBox.dataset.shown = n;
  if (r.shimo) {
    const m = shownKana(r.shimo.kana, r.shimo.t, t);
    lowerBox.textContent = r.shimo.kana.slice(0, m).join("");
  } else {
    lowerBox.textContent = "";
  }
}

const markKimariji = () => view.mode === "solo" || view.settings.show_kimariji;

// --- speech -----------------------------------------------------------------------------

const speechOn = () => $("[data-speech]").checked;
let voice = null;

function pickVoice() {
  if (!("speechSynthesis" in window)) return;
  voice = speechSynthesis.getVoices().find((v) => v.lang && v.lang.toLowerCase().startsWith("ja")) ?? null;
}

function say(text) {
  if (!speechOn() || !voice || !text) return;
  try {
    const u = new SpeechSynthesisUtterance(text.replace(/ /g, "、"));
    u.lang = "ja-JP";
    u.voice = voice;
    u.rate = Math.min(2, Math.max(0.6, (1000 / cur.r.unit) / 6));
    speechSynthesis.speak(u);
  } catch {
    /* speech is a bonus: never let it stop the game */
  }
}

function speak(t) {
  if (!cur) return;
  for (const seg of cur.r.preamble) {
    if (seg.said && t >= seg.start && !cur.spoken.has(seg.part)) { cur.spoken.add(seg.part); if (t < seg.end) say(seg.said); }
  }
  if (t >= 0 && !cur.spoken.has("kami")) { cur.spoken.add("kami"); say(cur.r.kami.said.join("")); }
  if (cur.r.shimo && t >= cur.r.shimo.t[0] && !cur.spoken.has("shimo")) { cur.spoken.add("shimo"); say(cur.r.shimo.said); }
}

// --- the reader's clock -------------------------------------------------------------------

function startReading(r) {
  if ("speechSynthesis" in window) speechSynthesis.cancel();
  cur = { number: r.number, r, t0: now() - r.preamble[0].start, shownTouches: new Set(), passed: false, spoken: new Set() };
}

function tick() {
  if (cur) {
    const t = tNow();
    renderReading();
    speak(t);
    showTouches(t);
    maybePass(t);
  }
  renderMemorise();
  renderPrompt();
}

function loop() {
  tick();
  requestAnimationFrame(loop);
}

// Touches of other seats, when the reader's clock reaches them.
function showTouches(t) {
  const r = view?.reading;
  if (!r || r.number !== cur.number) return;
  for (const [seat, card, tt] of r.touches) {
    const key = `${seat}:${card}`;
    if (seat === you() || tt > t || cur.shownTouches.has(key)) continue;
    cur.shownTouches.add(key);
    const el = cardEl(card);
    if (el) {
      el.classList.add("touched", `by-${COLOURS[seat]}`);
      const badge = document.createElement("span");
      badge.className = `touch-badge seat-${COLOURS[seat]}`;
      badge.textContent = seatName(seat).slice(0, 1);
      el.append(badge);
    }
    log(fmt(S.touched, { who: seatName(seat), card: cardLabel(card), t: secs(tt) }), false);
  }
}

// "pass" once nothing more can happen: the clock passed the close, or another seat's
// touch on the read card (touches after a take never count).
function maybePass(t) {
  if (!active() || cur.passed || cur.number !== view.reading.number) return;
  const r = view.reading;
  const taken = r.touches.filter(([s, card]) => s !== you() && card === r.poem).map(([, , tt]) => tt);
  const first = taken.length ? Math.min(...taken) : Infinity;
  if (t > r.close || t > first) {
    cur.passed = true;
    act({ type: "pass" });
  }
}

// --- actions -----------------------------------------------------------------------------

// Seats act at once in karuta, so actions are not tied to the last sequence number seen.
const act = (action) => client.act(action, { checkSeq: false });

function take(poem) {
  if (!view || match?.status !== "playing") return;
  if (view.phase === "send") {
    if (!sendPending && view.send.from === you() && ownRows().some((row) => row.includes(poem))) {
      sendPending = true; // one send per frame: the next frame says how many are left
      act({ type: "send", card: poem });
      announce(fmt(S.youSend, { card: cardLabel(poem) }));
    } else if (view.send.from === you()) {
      announce(fmt(S.chooseSend, { n: view.send.remaining }));
    }
    return;
  }
  if (view.phase === "memorise") { announce(S.notYet); return; }
  if (!active()) { announce(view.phase === "reading" && view.reading.sitting_out.includes(you()) ? S.sittingOut : S.notNow); return; }
  const t = tNow();
  if (t < 0) { announce(S.notYet); return; }
  const r = view.reading;
  if (myTouches().some(([, card]) => card === poem)) return;
  const last = myTouches().reduce((m, [, , tt]) => Math.max(m, tt), 0);
  const at = Math.max(last, Math.min(t, r.close));
  if (t > r.close) { maybePass(t); return; }
  act({ type: "touch", card: poem, t: at });
  r.touches.push([you(), poem, at]);
  if (poem === r.poem || view.mode === "chirashi") r.done.push(you());
  const el = cardEl(poem);
  if (el) el.classList.add("touched", "by-you");
}

function ready() {
  if (readySent || view?.phase !== "memorise" || !view.to_act.includes(you())) return;
  readySent = true;
  act({ type: "ready" });
}

// Rearranging your side: allowed while memorising, or before the upper verse starts and
// before you have touched.
function canArrange() {
  if (!view || view.mode !== "competitive" || you() === null) return false;
  if (view.phase === "memorise") return view.to_act.includes(you());
  return active() && tNow() < -150 && myTouches().length === 0;
}

function arrange(rows) {
  if (!canArrange()) { announce(S.noArrange); return false; }
  const action = { type: "arrange", rows };
  if (view.phase === "reading") action.t = Math.min(-1, tNow());
  view.sides[you()] = rows;
  pendingArrange = rows;
  act(action);
  renderBoard();
  return true;
}

function moveCard(poem, dRow, dCol) {
  const rows = ownRows().map((row) => row.slice());
  const r = rows.findIndex((row) => row.includes(poem));
  if (r < 0) return;
  const c = rows[r].indexOf(poem);
  if (dRow) {
    const to = r + dRow;
    if (to < 0 || to > 2) return;
    rows[r].splice(c, 1);
    rows[to].splice(Math.min(c, rows[to].length), 0, poem);
  } else {
    const to = c + dCol;
    if (to < 0 || to >= rows[r].length) return;
    rows[r].splice(c, 1);
    rows[r].splice(to, 0, poem);
  }
  if (arrange(rows)) { cardEl(poem)?.focus(); announce(S.moved); }
}

function dropOn(poem, targetRow, beforePoem) {
  const rows = ownRows().map((row) => row.filter((c) => c !== poem));
  const at = beforePoem == null ? rows[targetRow].length : rows[targetRow].indexOf(beforePoem);
  rows[targetRow].splice(at < 0 ? rows[targetRow].length : at, 0, poem);
  arrange(rows);
}

// --- board --------------------------------------------------------------------------------

const cardEl = (poem) => document.querySelector(`.kcard[data-card='${poem}']`);

function torifudaColumns(poem) {
  // Printed torifuda: five columns of three kana, read top to bottom, right to left.
  const flat = CARDS[poem].tori.replace(/ /g, "");
  const columns = [];
  for (let i = 0; i < flat.length; i += 3) columns.push(flat.slice(i, i + 3));
  if (columns.length > 5) columns[4] += columns.splice(5).join("");
  return columns;
}

function makeCard(poem, { upsideDown = false, rotate = null, own = false } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "kcard";
  button.dataset.card = poem;
  button.lang = "ja";
  const kimariji = view.kimariji?.[poem];
  const kimarijiText = kimariji ? CARDS[poem].kami.slice(0, kimariji) : "";
  // The accessible name is the card's own text (torifuda, then its kimariji).
  const face = document.createElement("span");
  face.className = "kcard-face";
  if (upsideDown) face.classList.add("upside-down");
  for (const column of torifudaColumns(poem)) {
    const col = document.createElement("span");
    col.className = "kcol";
    for (const kana of column) {
      const k = document.createElement("span");
      k.textContent = kana;
      col.append(k);
    }
    face.append(col);
  }
  button.append(face);
  if (kimarijiText) {
    const k = document.createElement("span");
    k.className = "kcard-kimariji";
    k.textContent = kimarijiText;
    button.append(k);
  }
  if (rotate !== null) button.style.setProperty("--rot", `${rotate}deg`);
  if (own) {
    button.classList.add("own");
    if (picked === poem) button.classList.add("picked");
    button.draggable = true;
  }
  for (const [s, card] of view.reading?.touches ?? []) {
    if (card === poem && (s === you() || cur?.shownTouches.has(`${s}:${card}`))) {
      button.classList.add("touched", s === you() ? "by-you" : `by-${COLOURS[s]}`);
    }
  }
  return button;
}

function renderRows(box, rows, { opponent }) {
  // The opponent's side as seen from across the table: their lower row farthest away,
  // each row reversed, every card upside down.
  const order = opponent ? [2, 1, 0] : [0, 1, 2];
  box.replaceChildren(...order.map((r) => {
    const row = document.createElement("div");
    row.className = "krow";
    row.dataset.row = r;
    const cards = opponent ? rows[r].slice().reverse() : rows[r];
    row.append(...cards.map((poem) => makeCard(poem, { upsideDown: opponent, own: !opponent })));
    return row;
  }));
}

function renderBoard() {
  if (!view) return;
  const focused = document.activeElement?.dataset?.card;
  const focusIndex = focused ? visibleCards().indexOf(document.activeElement) : -1;
  const competitive = view.mode === "competitive";
  $("[data-side-opponent]").hidden = !competitive;
  $("[data-side-own]").hidden = !competitive;
  $("[data-centre-line]").hidden = !competitive;
  $("[data-caption-opponent]").hidden = !competitive;
  $("[data-caption-own]").hidden = !competitive;
  $("[data-scatter]").hidden = competitive;
  $("[data-piles]").hidden = competitive;
  if (competitive) {
    const me = you() ?? 0;
    renderRows($("[data-side-opponent]"), view.sides[1 - me], { opponent: true });
    renderRows($("[data-side-own]"), view.sides[me], { opponent: false });
    $("[data-side-opponent]").setAttribute("aria-label", fmt(S.sideOf, { who: seatLabel(1 - me), n: count(1 - me) }));
    $("[data-side-own]").setAttribute("aria-label", fmt(S.sideOf, { who: seatLabel(me), n: count(me) }));
    $("[data-side-opponent]").setAttribute("role", "group");
    $("[data-side-own]").setAttribute("role", "group");
    $("[data-caption-opponent]").textContent = fmt(S.sideOf, { who: seatLabel(1 - me), n: count(1 - me) });
    $("[data-caption-own]").textContent = fmt(S.sideOf, { who: seatLabel(me), n: count(me) });
  } else {
    const scatter = $("[data-scatter]");
    const columns = Math.max(1, Math.ceil(Math.sqrt(view.pool_size)));
    scatter.style.setProperty("--cols", columns);
    // Keyboard order follows the table: top to bottom, then left to right.
    const field = view.field.slice().sort((a, b) => (Math.round(a[2] * columns) - Math.round(b[2] * columns)) || (a[1] - b[1]));
    scatter.replaceChildren(...field.map(([poem, x, y, deg]) => {
      const card = makeCard(poem, { rotate: deg });
      // Keep every card (turned any way) inside the field: a margin of about half a card.
      card.style.left = `${(7 + x * 86).toFixed(2)}%`;
      card.style.top = `${(9 + y * 82).toFixed(2)}%`;
      return card;
    }));
    renderPiles();
  }
  document.body.classList.toggle("sending", view.phase === "send" && view.send?.from === you());
  document.body.classList.toggle("can-arrange", canArrange());
  if (focused) {
    // A card taken from under the focus: keep the focus on the board, on its neighbour.
    const again = cardEl(focused) ?? visibleCards()[Math.min(focusIndex, visibleCards().length - 1)];
    again?.focus();
  }
}

function renderPiles() {
  const box = $("[data-piles]");
  box.replaceChildren(...view.taken.map((cards, seat) => {
    const pile = document.createElement("div");
    pile.className = `pile-box seat-${COLOURS[seat]}`;
    pile.dataset.seat = seat;
    const title = document.createElement("span");
    title.className = "pile-title";
    title.textContent = seatLabel(seat);
    const n = document.createElement("b");
    n.dataset.takenCount = seat;
    n.textContent = fmt(S.cardsTaken, { n: cards.length });
    pile.append(title, n);
    if (cards.length) {
      const top = document.createElement("span");
      top.className = "pile-top";
      top.lang = "ja";
      top.textContent = cardLabel(cards[cards.length - 1]);
      pile.append(top);
    }
    if (view.reading?.sitting_out.includes(seat)) {
      const out = document.createElement("span");
      out.className = "pile-out";
      out.textContent = S.sitsOut;
      pile.append(out);
    }
    return pile;
  }));
}

function count(seat) {
  if (view.mode === "competitive") return view.sides[seat].reduce((n, row) => n + row.length, 0);
  return view.taken[seat].length;
}

function renderCounts() {
  $("[data-count-head]").textContent = view.mode === "competitive" ? S.cardsLeftHead : S.cardsTakenHead;
  $("[data-seat-counts]").replaceChildren(...view.seats.map((_, seat) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const chip = document.createElement("span");
    chip.className = `seat-chip seat-${COLOURS[seat]}`;
    th.append(chip, seatLabel(seat));
    const n = document.createElement("td");
    n.dataset.seatCount = seat;
    n.textContent = count(seat);
    const o = document.createElement("td");
    o.textContent = view.tally[seat].otetsuki;
    tr.append(th, n, o);
    return tr;
  }));
}

// --- status lines ---------------------------------------------------------------------------

function renderStatus() {
  const box = $("[data-reading-status]");
  if (!view) return;
  const r = view.reading;
  if (view.phase === "over") box.textContent = S.over;
  else if (r) box.textContent = fmt(S.readingStatus, { n: r.number, left: view.unread_count });
  else box.textContent = "";
}

function renderMemorise() {
  const box = $("[data-memorise]");
  if (!view || view.phase !== "memorise") { box.hidden = true; return; }
  box.hidden = false;
  if (memoriseEnd === null) memoriseEnd = now() + view.settings.memorise_seconds * 1000;
  const left = Math.max(0, Math.ceil((memoriseEnd - now()) / 1000));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const el = $("[data-memorise-left]");
  if (el.textContent !== text) el.textContent = text;
  $("[data-skip]").disabled = readySent || !view.to_act.includes(you());
  if (left === 0) ready();
}

function promptText() {
  if (!view || !match) return "";
  if (match.status === "waiting") return S.waiting;
  if (view.phase === "over") return "";
  if (view.phase === "memorise") {
    return readySent || !view.to_act.includes(you()) ? S.waitReady : (view.mode === "competitive" ? S.memoriseArrange : S.memorise);
  }
  if (view.phase === "send") {
    return view.send.from === you() ? fmt(S.chooseSend, { n: view.send.remaining }) : fmt(S.cpuSends, { who: seatName(view.send.from) });
  }
  const r = view.reading;
  if (!r || !cur) return "";
  if (r.sitting_out.includes(you())) return S.sittingOut;
  const t = tNow();
  if (t < 0) return canArrange() ? S.listenArrange : S.listen;
  if (active()) return S.take;
  return S.waitOthers;
}

function renderPrompt() {
  const text = promptText();
  const box = $("[data-prompt]");
  if (box.textContent !== text) box.textContent = text;
  const arrangeNow = canArrange();
  if (document.body.classList.contains("can-arrange") !== arrangeNow) document.body.classList.toggle("can-arrange", arrangeNow);
}

// --- results ----------------------------------------------------------------------------------

function announce(text) {
  $("[data-announcer]").textContent = text;
}

function log(text, speakIt = true) {
  const li = document.createElement("li");
  li.textContent = text;
  const list = $("[data-log]");
  list.prepend(li);
  while (list.children.length > 40) list.lastChild.remove();
  if (speakIt) announce(text);
}

function showResultOnBoard(result, lines) {
  const box = $("[data-last-result]");
  box.hidden = false;
  const card = $("[data-last-card]");
  card.replaceChildren(...torifudaColumns(result.poem).map((c) => {
    const col = document.createElement("span");
    col.className = "kcol";
    col.textContent = c;
    return col;
  }));
  card.className = "last-card kcard-face";
  if (result.taker !== null && result.taker !== undefined) card.classList.add(`taken-by-${COLOURS[result.taker]}`);
  else if (view.mode === "solo" && result.t !== null) card.classList.add("taken-by-red");
  $("[data-last-lines]").replaceChildren(...lines.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

function addSoloRow(result) {
  if (soloRows.has(result.number)) return;
  soloRows.add(result.number);
  const tr = document.createElement("tr");
  const name = document.createElement("td");
  name.lang = "ja";
  name.textContent = cardLabel(result.poem);
  const t = document.createElement("td");
  t.textContent = result.t === null ? S.missed : `${secs(result.t)} s`;
  const after = document.createElement("td");
  after.textContent = result.t === null ? "—" : `${secs(result.after_kimariji)} s`;
  if (result.wrong.length) after.textContent += ` · ${fmt(S.wrongN, { n: result.wrong.length })}`;
  tr.append(name, t, after);
  $("[data-solo-rows]").prepend(tr);
}

function renderSoloTable() {
  const box = $("[data-solo-times]");
  box.hidden = view.mode !== "solo";
  if (view.mode !== "solo") return;
  (view.records || []).forEach((rec, i) => addSoloRow({ ...rec, number: i + 1 }));
}

// --- result screen --------------------------------------------------------------------------------

function renderResult() {
  const result = view?.result;
  const box = $("[data-result]");
  if (!result) { box.hidden = true; return; }
  const competitive = result.score_kind === "cards_left";
  let summary;
  if (view.mode === "solo") summary = fmt(S.soloDone, { n: result.scores[0], total: view.records.length });
  else if (result.winner === null) summary = S.tie;
  else summary = fmt(competitive ? S.winsEmpty : S.winsMost, { who: seatLabel(result.winner), n: result.scores[result.winner] });
  $("[data-result-summary]").textContent = summary;
  $("[data-result-count-head]").textContent = competitive ? S.cardsLeftHead : S.cardsTakenHead;
  const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
  $("[data-result-rows]").replaceChildren(...order.map(({ place, seat }) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    for (const text of [String(place), seatLabel(seat), String(result.scores[seat]), String(view.tally[seat].otetsuki)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
  if (view.mode === "solo") renderSoloSummary();
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) box.focus();
  if (!ended) {
    ended = true;
    const mine = result.places[you() ?? 0];
    const outcome = view.mode === "solo" ? "complete" : result.winner === null && mine === 1 ? "draw" : mine === 1 ? "win" : "loss";
    telemetry.gameEnd(match.mode, outcome, {
      game: "karuta", cpuLevel: cpuLevel(), settings: config.telemetry_settings,
      moves: view.read.length, durationMs: startedAt ? Date.now() - startedAt : 0,
    });
  }
}

// Same order as games/karuta/stats.slowest_poems: missed first, then slowest after the kimariji.
function slowestPoems(records, n) {
  return records.slice().sort((a, b) => {
    const ma = a.t === null ? 0 : 1;
    const mb = b.t === null ? 0 : 1;
    return ma - mb || (b.after_kimariji ?? 0) - (a.after_kimariji ?? 0) || a.poem - b.poem;
  }).slice(0, n).map((r) => r.poem);
}

function renderSoloSummary() {
  const records = view.records;
  $("[data-solo-summary]").hidden = false;
  const taken = records.filter((r) => r.t !== null);
  const after = taken.map((r) => r.after_kimariji).sort((a, b) => a - b);
  const mean = after.length ? after.reduce((a, b) => a + b, 0) / after.length : null;
  const median = after.length ? (after.length % 2 ? after[(after.length - 1) / 2] : (after[after.length / 2 - 1] + after[after.length / 2]) / 2) : null;
  const mistakes = records.reduce((n, r) => n + r.wrong.length, 0);
  const figures = [
    [S.figTaken, `${taken.length} / ${records.length}`],
    [S.figMean, mean === null ? "—" : `${secs(mean)} s`],
    [S.figMedian, median === null ? "—" : `${secs(median)} s`],
    [S.figMistakes, String(mistakes)],
  ];
  $("[data-solo-figures]").replaceChildren(...figures.flatMap(([k, v]) => {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    return [dt, dd];
  }));
  $("[data-solo-chart]").replaceChildren(soloChart(records));
  const slow = slowestPoems(records, 5);
  $("[data-slowest]").replaceChildren(...slow.map((poem) => {
    const rec = records.find((r) => r.poem === poem);
    const li = document.createElement("li");
    li.textContent = `${cardLabel(poem)} ${rec.t === null ? S.missed : `${secs(rec.after_kimariji)} s`}`;
    return li;
  }));
  $("[data-practise-poems]").value = slowestPoems(records, 20).join(",");
  $("[data-practise-pace]").value = typeof view.settings.pace === "string" ? view.settings.pace : "standard";
  $("[data-practise-kimariji]").value = view.settings.show_kimariji ? "on" : "";
  $("[data-practise-speech]").value = speechOn() ? "on" : "";
}

function soloChart(records) {
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const W = 640; const H = 220; const left = 44; const bottom = 28; const top = 10;
  const values = records.map((r) => (r.t === null ? null : Math.max(0, r.after_kimariji)));
  const maxMs = Math.max(1000, ...values.filter((v) => v !== null));
  const scaleMax = Math.ceil(maxMs / 500) * 500;
  const plotH = H - bottom - top;
  const step = (W - left - 6) / Math.max(1, records.length);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "solo-chart-title", class: "chart" });
  svg.append(el("title", { id: "solo-chart-title" }, S.chartTitle));
  for (let ms = 0; ms <= scaleMax; ms += scaleMax / 4) {
    const y = top + plotH - (ms / scaleMax) * plotH;
    svg.append(el("line", { x1: left, x2: W, y1: y, y2: y, class: "grid" }));
    svg.append(el("text", { x: left - 4, y: y + 4, class: "axis", "text-anchor": "end" }, `${(ms / 1000).toFixed(1)}s`));
  }
  records.forEach((r, i) => {
    const x = left + i * step + step * 0.15;
    const w = step * 0.7;
    const missed = r.t === null;
    const v = missed ? scaleMax : values[i];
    const h = (v / scaleMax) * plotH;
    const bar = el("rect", { x, y: top + plotH - h, width: w, height: Math.max(1, h), class: missed ? "bar missed" : r.wrong.length ? "bar wrong" : "bar" });
    bar.append(el("title", {}, `${cardLabel(r.poem)} ${missed ? S.missed : `${secs(r.after_kimariji)} s`}${r.wrong.length ? ` · ${fmt(S.wrongN, { n: r.wrong.length })}` : ""}`));
    svg.append(bar);
    if (r.wrong.length) svg.append(el("text", { x: x + w / 2, y: top + plotH - h - 3, class: "mark", "text-anchor": "middle" }, "×"));
    if (records.length <= 25 || i % 5 === 0) svg.append(el("text", { x: x + w / 2, y: H - bottom + 14, class: "axis", "text-anchor": "middle" }, String(i + 1)));
  });
  svg.append(el("text", { x: W / 2, y: H - 4, class: "axis", "text-anchor": "middle" }, S.chartAxis));
  return svg;
}

// --- frames -------------------------------------------------------------------------------------

// How long to hold a frame that settles the current reading before the reader's clock has
// reached the moment it was settled (the take, or the close when nobody took).
function holdMs(frame) {
  if (!cur) return 0;
  for (const entry of frame.events) {
    for (const event of entry.events) {
      if (event.type === "result" && event.number === cur.number) {
        const at = event.t ?? cur.r.close;
        const wait = at - tNow();
        return wait > 0 ? Math.min(wait, 60000) : 0;
      }
    }
  }
  return 0;
}

function onState(frame) {
  frames.push(frame);
  pump();
}

function pump() {
  clearTimeout(holdTimer);
  while (frames.length) {
    const wait = holdMs(frames[0]);
    if (wait > 0) { holdTimer = setTimeout(pump, wait + 5); return; }
    apply(frames.shift());
  }
}

function apply(frame) {
  const before = view;
  view = frame.view;
  match = frame.match;
  pendingArrange = null;
  sendPending = false;
  $("[data-mode-label]").textContent = S.modes[view.mode] ? `(${S.modes[view.mode]})` : "";
  if (match.status === "playing" && startedAt === null) {
    startedAt = Date.now();
    telemetry.gameStart(match.mode, { game: "karuta", cpuLevel: cpuLevel(), settings: config.telemetry_settings });
  }
  if (view.phase !== "memorise") { memoriseEnd = null; readySent = false; }
  const r = view.reading;
  if (r && (!cur || cur.number !== r.number)) startReading(r);
  else if (r && cur) cur.r = r;
  if (!r) cur = null;
  // What happened, in words (the server's texts, in this page's language).
  const fresh = frame.reset ? [] : frame.events;
  const said = [];
  for (const entry of fresh) {
    const texts = entry.texts ?? [];
    for (const text of texts) log(text, false);
    said.push(...texts);
    const result = entry.events.find((e) => e.type === "result");
    if (result) {
      // The texts end with "reading N begins" when the next reading started in the same step.
      const next = entry.events.some((e) => e.type === "reading") ? 1 : 0;
      showResultOnBoard(result, texts.slice(0, texts.length - next));
      if (view.mode === "solo") addSoloRow(result);
    }
  }
  if (said.length) announce(said.join(" "));
  if (frame.reset && view.last) showResultOnBoard(view.last, []);
  if (!before || before.mode !== view.mode) $("[data-speech]").checked = Boolean(view.settings.speech);
  renderStatus();
  renderBoard();
  renderCounts();
  renderSoloTable();
  renderResult();
  room.update(match);
  tick();
}

// --- keyboard --------------------------------------------------------------------------------------

const ROMAJI = (() => {
  const table = { a: "あ", i: "い", u: "う", e: "え", o: "お", n: "ん", nn: "ん" };
  const rows = { k: "かきくけこ", g: "かきくけこ", s: "さしすせそ", z: "さしすせそ", t: "たちつてと", d: "たちつてと",
    n: "なにぬねの", h: "はひふへほ", b: "はひふへほ", p: "はひふへほ", f: "はひふへほ", m: "まみむめも",
    y: "やいゆえよ", r: "らりるれろ", l: "らりるれろ", w: "わゐうゑを", j: "さしすせそ", v: "はひふへほ" };
  for (const [c, kana] of Object.entries(rows)) [..."aiueo"].forEach((v, i) => { table[c + v] = kana[i]; });
  Object.assign(table, { shi: "し", chi: "ち", tsu: "つ", ji: "し", fu: "ふ", wo: "を", wi: "ゐ", we: "ゑ" });
  return table;
})();

function romajiToKana(text) {
  let out = "";
  let i = 0;
  const s = text.toLowerCase();
  while (i < s.length) {
    let matched = false;
    for (const len of [3, 2, 1]) {
      const part = s.slice(i, i + len);
      if (part.length === len && ROMAJI[part] && !(part === "n" && i + 1 < s.length && "aiueoy".includes(s[i + 1]))) {
        out += ROMAJI[part];
        i += len;
        matched = true;
        break;
      }
    }
    if (!matched) {
      if (i + 1 < s.length && s[i] === s[i + 1] && !"aiueon".includes(s[i])) { out += "つ"; i += 1; continue; } // っ is printed つ
      if (/[ぁ-ゟ]/.test(s[i])) { out += s[i]; i += 1; continue; }
      return { kana: out, rest: s.slice(i) };
    }
  }
  return { kana: out, rest: "" };
}

// Torifuda have no voicing marks and no small kana: compare on the plain letters.
function plain(text) {
  return text.normalize("NFD").replace(/[\u3099\u309a]/g, "").normalize("NFC")
    .replace(/[ぁぃぅぇぉっゃゅょゎ]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 1)).replace(/\s/g, "");
}

function visibleCards() {
  return [...document.querySelectorAll("[data-board] .kcard")];
}

function matches(typed) {
  const { kana, rest } = romajiToKana(typed);
  const key = plain(kana);
  if (!key && !rest) return [];
  return visibleCards().filter((el) => plain(CARDS[el.dataset.card].tori).startsWith(key) && (key || !rest));
}

let typed = "";
let typedTimer = null;

function typeAhead(char) {
  typed += char;
  clearTimeout(typedTimer);
  typedTimer = setTimeout(() => { typed = ""; }, 1200);
  const found = matches(typed);
  if (found.length) {
    found[0].focus();
    $("[data-jump-help]").textContent = fmt(S.matchesN, { n: found.length, typed });
  }
}

function gridMove(from, key) {
  const cards = visibleCards();
  const rect = from.getBoundingClientRect();
  const cx = rect.left + rect.width / 2;
  const cy = rect.top + rect.height / 2;
  const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const el of cards) {
    if (el === from) continue;
    const r = el.getBoundingClientRect();
    const dx = r.left + r.width / 2 - cx;
    const dy = r.top + r.height / 2 - cy;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 4) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + across * 2.5;
    if (score < bestScore) { bestScore = score; best = el; }
  }
  best?.focus();
}

function onBoardKey(event) {
  const card = event.target.closest?.(".kcard");
  if (!card || event.ctrlKey || event.metaKey || event.altKey) return;
  const poem = Number(card.dataset.card);
  if (event.key.startsWith("Arrow")) {
    event.preventDefault();
    if (event.shiftKey && card.classList.contains("own")) {
      const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
      moveCard(poem, d[0], d[1]);
    } else {
      gridMove(card, event.key);
    }
    return;
  }
  if (event.key.length === 1 && event.key !== " " && !event.isComposing) {
    event.preventDefault();
    typeAhead(event.key);
  }
}

// --- wiring -------------------------------------------------------------------------------------------

const board = $("[data-board]");
// Between readings a click (tap, Enter, Space) on one of your cards picks it up and the
// next click on one of your cards (or an empty place in a row) puts it down there: the
// way to rearrange on a touch screen, and a second keyboard way.
let picked = null;

function pickOrPlace(card, row) {
  if (picked === null) {
    if (!card) return;
    picked = Number(card.dataset.card);
    card.classList.add("picked");
    announce(S.picked);
    return;
  }
  const poem = picked;
  picked = null;
  document.querySelector(".kcard.picked")?.classList.remove("picked");
  const target = card ? Number(card.dataset.card) : null;
  if (target === poem) return;
  dropOn(poem, Number(row.dataset.row), target);
  cardEl(poem)?.focus();
  announce(S.moved);
}

board.addEventListener("click", (event) => {
  const card = event.target.closest(".kcard");
  const ownRow = event.target.closest(".side-own .krow");
  if (ownRow && canArrange() && (!card || card.classList.contains("own"))) {
    pickOrPlace(card, ownRow);
    return;
  }
  picked = null;
  if (card) take(Number(card.dataset.card));
});
board.addEventListener("keydown", onBoardKey);
let dragged = null;
board.addEventListener("dragstart", (event) => {
  const card = event.target.closest?.(".kcard.own");
  if (!card || !canArrange()) { event.preventDefault(); return; }
  dragged = Number(card.dataset.card);
  event.dataTransfer.effectAllowed = "move";
  event.dataTransfer.setData("text/plain", String(dragged));
});
board.addEventListener("dragover", (event) => {
  if (dragged !== null && event.target.closest?.(".side-own .krow")) event.preventDefault();
});
board.addEventListener("drop", (event) => {
  const row = event.target.closest?.(".side-own .krow");
  if (dragged === null || !row) return;
  event.preventDefault();
  const target = event.target.closest(".kcard");
  const before = target && Number(target.dataset.card) !== dragged ? Number(target.dataset.card) : null;
  dropOn(dragged, Number(row.dataset.row), before);
  dragged = null;
});
board.addEventListener("dragend", () => { dragged = null; });

const jump = $("[data-jump]");
jump.addEventListener("input", () => {
  for (const el of document.querySelectorAll(".kcard.is-match")) el.classList.remove("is-match");
  const found = jump.value ? matches(jump.value) : [];
  for (const el of found) el.classList.add("is-match");
  $("[data-jump-help]").textContent = jump.value ? fmt(S.matchesN, { n: found.length, typed: jump.value }) : S.jumpHelp;
});
jump.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.isComposing) {
    event.preventDefault();
    const found = matches(jump.value);
    if (found.length) { found[0].focus(); jump.value = ""; for (const el of document.querySelectorAll(".kcard.is-match")) el.classList.remove("is-match"); }
  }
});
$("[data-skip]").addEventListener("click", ready);
if ("speechSynthesis" in window) {
  pickVoice();
  speechSynthesis.addEventListener?.("voiceschanged", pickVoice);
}

const client = new MatchClient(config, {
  onState,
  onRoom: (frame) => { match = frame.match; room.update(match); },
  onError: (error) => {
    log(error.message);
    if (error.view && !frames.length) { view = error.view; if (cur && view.reading?.number === cur.number) cur.r = view.reading; renderBoard(); renderCounts(); }
  },
  onConnection: (up) => room.connection(up),
});
const room = new Room(client, config);
// Read-only handle for tests and curious players: what this page was told, nothing more.
window.karutaPlay = { view: () => view, clock: () => tNow() };
requestAnimationFrame(loop);
setInterval(tick, 250); // keeps the clock's duties (pass, memorisation end) going in a background tab
client.connect();
