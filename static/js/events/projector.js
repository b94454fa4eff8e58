// The projector view: a spectator of one board, in big type: the handles, the line being
// read (the kana released so far) and, in karuta, the cards on the board where they lie
// (projector-board.js). Nothing here is more than a spectator receives.
import { MatchClient } from "../match-client.js";
import { scatterPlace } from "../karuta/layout.js";
import { cardFace, projectorBoard } from "./projector-board.js";

const config = JSON.parse(document.getElementById("match-config").textContent);
const cards = JSON.parse(document.getElementById("projector-cards").textContent);
const reading = document.getElementById("reading");
const boardBox = document.getElementById("projector-board");

function card(poem, { upsideDown = false, rotate = null, place = null } = {}) {
  const el = document.createElement("span");
  el.className = "pcard";
  el.dataset.card = poem;
  if (upsideDown) el.classList.add("upside-down");
  if (rotate !== null) el.style.setProperty("--rot", `${rotate}deg`);
  if (place) Object.assign(el.style, place);
  for (const column of cardFace(cards, poem) || []) {
    const col = document.createElement("span");
    col.className = "pcol";
    col.textContent = column;
    el.append(col);
  }
  return el;
}

function drawBoard(view) {
  const board = projectorBoard(view);
  boardBox.hidden = !board;
  if (!board) return;
  let count = 0;
  if (board.kind === "sides") {
    boardBox.className = "projector-board is-sided";
    boardBox.style.setProperty("--per-row", board.perRow);
    boardBox.replaceChildren(...board.sides.map((side, i) => {
      const box = document.createElement("div");
      box.className = `pside ${i === 0 ? "far" : "near"}`;
      box.dataset.side = side.side;
      count += side.count;
      box.append(...side.rows.map((row) => {
        const line = document.createElement("div");
        line.className = "prow";
        line.append(...row.map((poem) => card(poem, { upsideDown: side.upsideDown })));
        return line;
      }));
      return box;
    }));
  } else {
    boardBox.className = "projector-board is-field";
    boardBox.style.setProperty("--cols", board.columns);
    boardBox.replaceChildren(...board.cards.map(({ poem, x, y, deg }) => card(poem, { rotate: deg, place: scatterPlace(x, y) })));
    count = board.cards.length;
  }
  boardBox.setAttribute("aria-label", `${boardBox.dataset.count} ${count}`);
}

function draw(frame) {
  const seats = frame.match?.seats || [];
  seats.forEach((seat, i) => {
    const el = document.getElementById(`seat-${i}`);
    if (el && seat?.handle) el.textContent = seat.handle;
  });
  const view = frame.view || {};
  drawBoard(view);
  if (frame.match?.status === "finished") {
    reading.classList.add("waiting");
    reading.textContent = reading.dataset.over;
    return;
  }
  if (config.game !== "karuta") {
    reading.textContent = ""; // no reading in Bozu or Bakudan: the handles say who plays
    return;
  }
  const r = view.reading;
  const line = r && r.kana?.length ? r.kana.map((k) => k[0]).join("") : null;
  reading.classList.toggle("waiting", line === null); // the kana big, the notice small
  reading.textContent = line ?? reading.dataset.waiting;
}

// Read-only, for tests: the last board drawn.
window.eventsProjector = { cards: () => [...boardBox.querySelectorAll(".pcard")].map((el) => Number(el.dataset.card)) };
new MatchClient(config, { onState: draw }).connect();
