// The trainer's DOM: the set menu, today's count, the grid, the missed list, a question.
// Drawing only; the state lives in page.js and drill.js.
import { fmt } from "../text.js";
import { mostMissed, recall, status } from "./schedule.js";

const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

export function setLabel(set, msg) {
  const m = msg.set;
  switch (set.kind) {
    case "length": return fmt(m.length, { n: set.length });
    case "range": return fmt(m.range, { first: set.first, last: set.last });
    case "colour": return fmt(m.colour, { name: msg.colours[set.name] ?? set.name });
    case "group": return fmt(set.shrink ? m.shrink : m.group, { prefix: set.prefix });
    default: return m[set.kind];
  }
}

const GROUP_OF = { all: "basic", "one-kana": "basic", length: "basic", range: "range", colour: "colour", group: "group" };

export function drawSetMenu(select, sets, msg) {
  const groups = new Map();
  for (const set of sets) {
    const key = GROUP_OF[set.kind];
    if (!groups.has(key)) groups.set(key, el("optgroup", { label: msg.setGroups[key] }));
    const option = el("option", { value: set.id, text: `${setLabel(set, msg)} (${set.poems.length})` });
    groups.get(key).append(option);
  }
  select.replaceChildren(...groups.values());
}

export function dueText(n, msg) {
  return fmt(n === 1 ? msg.dueOne : msg.dueMany, { n });
}

const seconds = (ms) => (ms / 1000).toFixed(1);

/** The 100 cells, each poem's state and usual time; redrawing one cell is `drawCell`. */
export function drawGrid(byN, records, now, msg) {
  const cells = [...byN.values()].map((p) => el("li", { "data-poem": p.n }));
  $("poem-grid").replaceChildren(...cells);
  for (const p of byN.values()) drawCell(p, records.get(p.n), now, msg);
}

export function drawCell(poem, record, now, msg) {
  const cell = $("poem-grid").children[poem.n - 1];
  const state = status(record);
  cell.className = `cell status-${state}`;
  const label = fmt(msg.cell, { n: poem.n, kimariji: poem.kimariji, status: msg.status[state] });
  const speed = record?.ms != null ? fmt(msg.cellSpeed, { s: seconds(record.ms) }) : "";
  cell.title = speed ? `${label} · ${speed}` : label;
  if (!cell.firstChild) {
    cell.append(el("span", { class: "cell-n", text: String(poem.n) }), el("span", { class: "cell-k", lang: "ja", text: poem.kimariji }),
      el("span", { class: "cell-speed" }), el("span", { class: "visually-hidden" }));
  }
  cell.children[2].textContent = speed;
  cell.children[3].textContent = ` ${msg.status[state]}`;
}

const cardName = (p) => `${p.n} ${p.kimariji}`;

export function drawMissed(byN, records, msg) {
  const rows = mostMissed(records).map((m) => {
    const item = el("li", { text: fmt(msg.missed, { card: cardName(byN.get(m.n)), misses: m.misses, seen: m.seen }) });
    if (m.confusedWith) item.append(" · ", fmt(msg.confused, { card: cardName(byN.get(m.confusedWith)) }));
    return item;
  });
  $("missed-list").replaceChildren(...(rows.length ? rows : [el("li", { text: msg.noMisses })]));
}

function columns(poem) {
  const text = poem.tori.replace(/ /g, "");
  const cols = [];
  for (let i = 0; i < text.length && cols.length < 5; i += 3) cols.push(cols.length === 4 ? text.slice(i) : text.slice(i, i + 3));
  return cols;
}

/** The torifuda as a small card: its kana in five columns, right to left. */
export function torifuda(poem) {
  return el("span", { class: "mini-card", lang: "ja" }, ...columns(poem).map((c) => el("span", { text: c })));
}

/** Turn `face` into this poem's small card, reusing its five column spans. */
function drawTorifuda(face, poem) {
  if (!face.classList.contains("mini-card")) {
    face.className = "option-face mini-card";
    face.lang = "ja";
    face.replaceChildren(...Array.from({ length: 5 }, () => el("span")));
  }
  columns(poem).forEach((c, i) => { face.children[i].textContent = c; });
}

// Focus moves on the next frame: focusing now would force a layout of the whole page inside
// the answer handler (the keys answer whatever has focus; see keyboard.js).
let focusFrame = 0;
function focusSoon(node) {
  cancelAnimationFrame(focusFrame);
  focusFrame = requestAnimationFrame(() => node.isConnected && node.focus({ preventScroll: true }));
}

export function drawQuestion(q, byN, msg) {
  const poem = byN.get(q.n);
  const showKimariji = q.drill === "choose" || q.drill === "tori-type";
  $("drill-prompt").textContent = showKimariji ? msg.promptKimariji : msg.promptTori;
  const shown = $("drill-question");
  const big = shown.firstElementChild;
  if (showKimariji && big?.classList.contains("big-kimariji")) big.textContent = poem.kimariji;
  else shown.replaceChildren(showKimariji ? el("span", { class: "big-kimariji", text: poem.kimariji }) : torifuda(poem));
  const options = $("drill-options");
  const typed = $("drill-typed");
  if (q.options) {
    typed.hidden = true;
    options.hidden = false;
    // The buttons stay and only their faces change: removing the focused button would make
    // the browser find a new focus (a layout) inside the answer.
    if (options.children.length !== q.options.length || options.dataset.drill !== q.drill) {
      options.dataset.drill = q.drill;
      options.replaceChildren(...q.options.map((_, i) => el("li", {}, el("button", { type: "button", class: "option", "aria-keyshortcuts": String(i + 1) },
        el("span", { class: "option-key", text: String(i + 1) }), el("span", { class: "option-face" })))));
    }
    q.options.forEach((n, i) => {
      const other = byN.get(n);
      const button = options.children[i].firstChild;
      const nagashi = q.drill === "nagashi";
      button.dataset.poem = n;
      button.classList.remove("is-answer");
      button.setAttribute("aria-label", `${i + 1}: ${nagashi ? other.kimariji : other.tori}`);
      const face = button.lastChild;
      if (nagashi) {
        face.className = "option-face option-kimariji";
        face.textContent = other.kimariji;
      } else {
        drawTorifuda(face, other);
      }
    });
    if (!options.contains(document.activeElement)) focusSoon(options.querySelector("button"));
  } else {
    options.hidden = true;
    options.replaceChildren();
    typed.hidden = false;
    $("drill-input-label").textContent = q.drill === "tori-type" ? msg.typeTori : msg.typeKimariji;
    const input = $("drill-input");
    input.value = "";
    focusSoon(input);
  }
}
