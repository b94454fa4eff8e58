// The button panel: whose turn it is, every hand's count, the pile's facts and the last
// card. With it alone the whole game can be played and followed by keyboard and reader.

import { seatColour } from "../seats.js";
import { cap, fmt } from "../text.js";

const $ = (sel) => document.querySelector(sel);

export function turnText(S, game) {
  const { view, match } = game;
  if (!match) return "";
  if (match.status === "waiting") return S.waiting;
  if (!view || view.over || match.status === "finished") return S.over;
  const seat = view.to_act;
  const info = match.seats[seat];
  const mine = game.mine();
  if (match.mode === "hotseat" && mine.includes(seat)) return cap(fmt(S.hotseatTurn, { seat: game.name(seat) }));
  if (mine.includes(seat)) return S.yourTurn;
  if (info && info.kind === "cpu") return cap(fmt(S.cpuTurn, { seat: game.name(seat) }));
  return cap(fmt(S.seatTurn, { seat: game.name(seat) }));
}

export function renderPanel(S, game) {
  const { view, match } = game;
  const turn = turnText(S, game);
  $("[data-turn-banner]").textContent = turn;
  $("[data-panel-turn]").textContent = turn;
  if (!view) return;
  for (const [sel, value] of [["[data-field-count]", view.field_count], ["[data-pile-count]", view.pile_count],
    ["[data-monks-left]", view.monks_left], ["[data-princesses-left]", view.princesses_left]]) $(sel).textContent = value;
  const rows = view.hand_counts.map((count, seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    if (seat === view.to_act && !view.over) tr.classList.add("to-act");
    const th = document.createElement("th");
    th.scope = "row";
    const chip = document.createElement("span");
    chip.className = `seat-chip seat-${seatColour(match, seat)}`;
    th.append(chip, cap(game.name(seat)));
    if (game.mine().includes(seat) && match.mode !== "hotseat") th.append(` (${S.you})`);
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
    ? fmt(S.lastCard, { poet: last.poet, class: S.classes[last.class], seat: game.name(drawer ? drawer.seat : 0) })
    : S.noCard;
}
