// The lobby page: the board over a WebSocket, quick pairing, taking a seek, the CPU offer,
// and the seat hand-off (a paired player's page posts its one-time ticket).
import { fill, poolText, seekText, watchText } from "./lines.js";

const script = document.getElementById("lobby-script");
const names = JSON.parse(document.getElementById("lobby-names").textContent);
const strings = Object.fromEntries(
  [...document.getElementById("lobby-strings").content.querySelectorAll("[data-s]")].map((el) => [
    el.dataset.s,
    el.textContent,
  ]),
);
const status = document.getElementById("lobby-status");
const errorBox = document.getElementById("lobby-error");
const waiting = document.getElementById("lobby-waiting");
const waitingText = document.getElementById("waiting-text");
const cpuOffer = document.getElementById("cpu-offer");
let socket = null;
let board = null;
let places = [];
let retry = 500;
// A press made while the socket is still opening (or reopening): sent once it is open.
// Only the last press counts; a ping is never kept.
let pending = null;

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  else if (frame.type !== "ping") pending = frame;
}

function showStatus() {
  const open = socket && socket.readyState === WebSocket.OPEN;
  if (!open) return;
  status.textContent = board && board.paused ? status.dataset.pairingPaused : "";
}

function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

function renderBoard() {
  const seeks = document.getElementById("lobby-seeks");
  const mine = new Set(places.filter((p) => p.seek).map((p) => p.seek));
  seeks.replaceChildren(
    ...board.seeks.map((seek) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = seekText(seek, names, strings);
      li.append(text, " ");
      if (mine.has(seek.id)) {
        // The person's own seek, or their seat at its table: they may leave it.
        const note = document.createElement("em");
        note.textContent = strings.yours;
        const leave = document.createElement("button");
        leave.type = "button";
        leave.textContent = strings.withdraw;
        leave.setAttribute("aria-label", `${strings.withdraw}: ${text.textContent}`);
        leave.addEventListener("click", () => send({ type: "leave", seek: seek.id }));
        li.append(note, " ", leave);
      } else {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = strings.take;
        button.dataset.seek = seek.id;
        button.setAttribute("aria-label", `${strings.take}: ${text.textContent}`);
        button.addEventListener("click", () => send({ type: "take", seek: seek.id }));
        li.append(button);
      }
      return li;
    }),
  );
  document.getElementById("seeks-empty").hidden = board.seeks.length > 0;
  const watch = document.getElementById("lobby-watch");
  watch.replaceChildren(
    ...board.watch.map((game) => {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = game.url;
      link.textContent = `${strings.watch}: ${watchText(game, names, strings)}`;
      li.append(link);
      return li;
    }),
  );
  document.getElementById("watch-empty").hidden = board.watch.length > 0;
  for (const el of document.querySelectorAll("[data-pool-count]")) {
    el.textContent = poolText(board.pools[el.dataset.poolCount], strings);
  }
  renderWaiting();
}

function renderWaiting() {
  const pool = places.find((p) => p.pool);
  waiting.hidden = !pool;
  for (const button of document.querySelectorAll(".pool-button")) {
    button.setAttribute("aria-pressed", String(Boolean(pool && pool.pool === button.dataset.pool)));
  }
  if (!pool) {
    cpuOffer.hidden = true;
    return;
  }
  const line = board && board.pools[pool.pool];
  let text = waitingText.dataset.waiting;
  if (line && line.expected != null) text += ` ${fill(waitingText.dataset.expected, { s: line.expected })}`;
  waitingText.textContent = text;
  cpuOffer.elements.pool.value = pool.pool;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/lobby/ws/?lang=${script.dataset.lang}`);
  status.textContent = status.dataset.connecting;
  socket.addEventListener("open", () => {
    showStatus();
    retry = 500;
    if (pending) {
      socket.send(JSON.stringify(pending));
      pending = null;
    }
  });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "board") {
      board = frame;
      renderBoard();
      showStatus();
    } else if (frame.type === "you") {
      places = frame.places;
      if (board) renderBoard();
    } else if (frame.type === "error") {
      showError(frame.text);
    } else if (frame.type === "cpu_offer") {
      cpuOffer.hidden = false;
    } else if (frame.type === "paired") {
      waitingText.textContent = waitingText.dataset.paired;
      const form = document.getElementById("seat-form");
      form.action = frame.go;
      form.submit();
    }
  });
  socket.addEventListener("close", () => {
    status.textContent = status.dataset.paused;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10_000);
  });
}

for (const button of document.querySelectorAll(".pool-button")) {
  button.addEventListener("click", () => {
    showError("");
    send({ type: "join", pool: button.dataset.pool });
  });
}
document.getElementById("leave-button").addEventListener("click", () => send({ type: "leave" }));
setInterval(() => send({ type: "ping" }), 25_000);
connect();
