// The Bozu Mekuri play screen: a CSS 3D table (optional) and a button panel that
// alone plays the whole game by keyboard. Every mode (CPU, hot-seat, friend) goes
// through the same match WebSocket; the server sends each seat only its own view.

import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import { seatColour, seatName as nameOf } from "../seats.js";
import { Table3D } from "../table3d.js";
import * as telemetry from "../telemetry.js";
import { cap, fmt } from "../text.js";

const config = JSON.parse(document.getElementById("match-config").textContent);
const S = JSON.parse(document.getElementById("bozu-strings").textContent);
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => [...document.querySelectorAll(sel)];
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

let view = null;
let match = null;
let startedAt = null;
let ended = false;
let drawnTimer = null;

const seatName = (seat) => nameOf(S.colours, match, seat);
const cpuLevel = () => match?.seats.find((s) => s.kind === "cpu")?.cpu_level ?? undefined;
const mine = () => (match ? match.seats.filter((s) => s.yours).map((s) => s.index) : []);

function canDraw() {
  return Boolean(view && match && match.status === "playing" && !view.over &&
    view.to_act !== null && mine().includes(view.to_act));
}

function draw() {
  if (!canDraw()) return;
  for (const b of $$("[data-draw], [data-pile-button]")) b.disabled = true;
  client.act({ type: "draw" }, { seat: view.to_act });
}

function turnText() {
  if (!match) return "";
  if (match.status === "waiting") return S.waiting;
  if (!view || view.over || match.status === "finished") return S.over;
  const seat = view.to_act;
  const info = match.seats[seat];
  if (match.mode === "hotseat" && mine().includes(seat)) return cap(fmt(S.hotseatTurn, { seat: seatName(seat) }));
  if (mine().includes(seat)) return S.yourTurn;
  if (info && info.kind === "cpu") return cap(fmt(S.cpuTurn, { seat: seatName(seat) }));
  return cap(fmt(S.seatTurn, { seat: seatName(seat) }));
}

function cardText(card) {
  return card ? `${card.poet}（${S.classes[card.class]}）` : "";
}

function renderPanel() {
  const turn = turnText();
  $("[data-turn-banner]").textContent = turn;
  $("[data-panel-turn]").textContent = turn;
  const enabled = canDraw();
  for (const b of $$("[data-draw], [data-pile-button]")) b.disabled = !enabled;
  document.body.classList.toggle("my-turn", enabled);
  if (!view) return;
  $("[data-field-count]").textContent = view.field_count;
  $("[data-pile-count]").textContent = view.pile_count;
  $("[data-monks-left]").textContent = view.monks_left;
  $("[data-princesses-left]").textContent = view.princesses_left;
  $("[data-field-count-3d]").textContent = view.field_count;
  $("[data-pile-count-3d]").textContent = view.pile_count;
  const rows = view.hand_counts.map((count, seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    if (seat === view.to_act && !view.over) tr.classList.add("to-act");
    const th = document.createElement("th");
    th.scope = "row";
    const chip = document.createElement("span");
    chip.className = `seat-chip seat-${seatColour(match, seat)}`;
    th.append(chip, cap(seatName(seat)));
    if (mine().includes(seat) && match.mode !== "hotseat") th.append(` (${S.you})`);
    const td = document.createElement("td");
    td.dataset.handCount = seat;
    td.textContent = count;
    if (view.skip_next[seat]) td.append(` · ${S.skipNext}`);
    tr.append(th, td);
    return tr;
  });
  $("[data-hand-counts]").replaceChildren(...rows);
  const last = view.last_card;
  const drawer = view.last_events.find((e) => e.type === "drew");
  $("[data-last-card]").textContent = last
    ? fmt(S.lastCard, { poet: last.poet, class: S.classes[last.class], seat: seatName(drawer ? drawer.seat : 0) })
    : S.noCard;
}

function renderTable() {
  if (!view) return;
  const areas = view.hand_counts.map((count, seat) => {
    const area = document.createElement("div");
    area.className = `seat-area seat-pos-${seat} of-${view.players}`;
    area.dataset.seat = seat;
    const stack = document.createElement("div");
    stack.className = `card-stack seat-${seatColour(match, seat)}`;
    stack.style.setProperty("--depth", Math.min(count, 40));
    const top = view.hands[seat][view.hands[seat].length - 1];
    if (top) stack.dataset.poem = top;
    const label = document.createElement("span");
    label.className = "stack-label";
    label.textContent = `${cap(seatName(seat))} ${count}`;
    area.append(stack, label);
    return area;
  });
  $("[data-seat-areas]").replaceChildren(...areas);
  $("[data-field-stack]").style.setProperty("--depth", Math.min(view.field_count, 40));
}

function showDrawn(card) {
  const box = $("[data-drawn-card]");
  $("[data-drawn-class]").textContent = S.classes[card.class];
  $("[data-drawn-poet]").textContent = card.poet;
  $("[data-drawn-kana]").textContent = card.poet_kana;
  box.dataset.class = card.class;
  box.hidden = false;
  box.classList.remove("leaving");
  clearTimeout(drawnTimer);
  drawnTimer = setTimeout(() => {
    box.classList.add("leaving");
    drawnTimer = setTimeout(() => { box.hidden = true; }, reducedMotion ? 0 : 400);
  }, reducedMotion ? 900 : 1100);
}

function announce(entries) {
  const lines = [];
  for (const entry of entries) {
    for (const text of entry.texts ?? []) lines.push(text);
  }
  if (!lines.length) return;
  $("[data-announcer]").textContent = lines.join(" ");
  const list = $("[data-last-events]");
  list.replaceChildren(...lines.slice(-6).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

function renderResult() {
  const result = view && view.result;
  const box = $("[data-result]");
  if (!result) { box.hidden = true; return; }
  const top = Math.max(...result.cards);
  const winners = result.winners.map((s) => cap(seatName(s)));
  $("[data-result-summary]").textContent = result.draw
    ? fmt(S.draw, { seats: winners.join(", "), n: top })
    : fmt(S.winner, { seat: winners[0], n: top });
  const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place);
  $("[data-result-places]").replaceChildren(...order.map(({ place, seat }) => {
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.textContent = fmt(S.place, { place, seat: cap(seatName(seat)), n: result.cards[seat] });
    return li;
  }));
  $("[data-invite-again]").hidden = !(match.mode === "friend" && mine().length);
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) box.focus();
  if (!ended) {
    ended = true;
    const outcome = result.draw ? "draw" : result.winners.some((s) => mine().includes(s)) ? "win" : "loss";
    telemetry.gameEnd(match.mode, outcome, {
      game: "bozu", cpuLevel: cpuLevel(), settings: config.telemetry_settings,
      moves: view.draws, durationMs: startedAt ? Date.now() - startedAt : 0,
    });
  }
}

function onState(frame) {
  const fresh = frame.events.filter((e) => e.events.length);
  view = frame.view;
  match = frame.match;
  $("[data-mode-label]").textContent = S.modes[match.mode] ? `(${S.modes[match.mode]})` : "";
  if (match.status === "playing" && startedAt === null) {
    startedAt = Date.now();
    telemetry.gameStart(match.mode, { game: "bozu", cpuLevel: cpuLevel(), settings: config.telemetry_settings });
  }
  renderPanel();
  renderTable();
  if (!frame.reset && fresh.length) {
    const drew = [...fresh].reverse().flatMap((e) => e.events).find((e) => e.type === "drew");
    if (drew && view.last_card) showDrawn(view.last_card);
    announce(fresh);
  }
  renderResult();
  room.update(match);
}

const client = new MatchClient(config, {
  onState,
  onRoom: (frame) => { match = frame.match; renderPanel(); room.update(match); },
  onError: (error) => {
    $("[data-announcer]").textContent = error.message;
    if (error.view) { view = error.view; renderPanel(); renderTable(); }
  },
  onConnection: (up) => room.connection(up),
});
const room = new Room(client, config);

for (const button of $$("[data-draw], [data-pile-button]")) button.addEventListener("click", draw);
$("[data-invite-again]").addEventListener("click", () => {
  telemetry.roomCreated("result");
  client.room("invite");
  document.querySelector("[data-room-invite]")?.scrollIntoView({ block: "center" });
  document.querySelector("[data-invite-url]")?.focus();
});
document.addEventListener("keydown", (event) => {
  // "d" draws when it is your turn (the buttons already work with Enter and Space).
  if (event.key === "d" && !event.ctrlKey && !event.metaKey && !event.altKey &&
      !(event.target instanceof HTMLInputElement) && canDraw()) draw();
});

telemetry.expect3d();
new Table3D($("[data-table3d]"), {
  onReady: () => { telemetry.view3dStarted(); telemetry.measureRenderSpeed(); },
  onFailure: () => telemetry.view3dFailure(),
}).start();
client.connect();
