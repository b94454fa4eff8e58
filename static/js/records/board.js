// The record's board: one replayed state (the server's `Game.record_view`) drawn as lists a
// screen reader reads in order, per game; anything else falls back to the move's text.

import { cap, fmt } from "../text.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

const list = (items, attrs = {}) => el("ul", attrs, ...items.map((text) => el("li", { text })));

function bakudan(view, ctx) {
  const kinds = ctx.extra.kinds || {};
  const kind = (card) => kinds[card.kind] || card.kind;
  const seats = view.seats.map((seat, i) => el("section", { class: `board-seat seat-${ctx.colour(i)}`, "data-seat": i },
    el("h4", { text: `${fmt(ctx.S.hand, { who: ctx.label(i) })}${seat.alive ? "" : " ✕"}${seat.shield ? " 🛡" : ""}` }),
    view.hands[i].length ? list(view.hands[i].map(kind)) : el("p", { text: ctx.S.empty })));
  return [
    el("div", { class: "board-seats" }, ...seats),
    el("section", { class: "board-deck" }, el("h4", { text: ctx.S.deck }),
      view.deck.length ? el("ol", {}, ...view.deck.map((c) => el("li", { class: c.kind === "bomb" ? "bomb" : null, text: kind(c) })))
        : el("p", { text: ctx.S.empty })),
    el("p", { text: `${ctx.S.discard}: ${view.discard_top ? kind(view.discard_top) : ctx.S.empty}` }),
  ];
}

function bozu(view, ctx) {
  return [
    el("dl", { class: "board-counts" }, ...view.hand_counts.flatMap((n, i) => [
      el("dt", { text: cap(ctx.label(i)) }), el("dd", { text: String(n) })]),
    el("dt", { text: ctx.S.tableCards }), el("dd", { text: String(view.field_count) })),
    view.last_card ? el("p", { lang: "ja", text: `${view.last_card.poet}` }) : null,
  ];
}

function karuta(view, ctx) {
  const card = ctx.extra.cardLabel;
  const parts = [];
  if (view.reading) parts.push(el("p", { class: "board-reading" }, `${fmt(ctx.S.reading, { n: view.reading.number })}: `, el("span", { lang: "ja", text: card(view.reading.poem) })));
  if (view.sides) {
    // Genpei: a side is a team's (view.teams: each seat's team), named by its seats.
    const who = (i) => (view.teams ? sideLabel(view.teams, i, ctx.label) : ctx.label(i));
    const colour = (i) => ctx.colour(view.teams ? view.teams.indexOf(i) : i);
    view.sides.forEach((rows, i) => parts.push(el("section", { class: `board-seat seat-${colour(i)}`, "data-seat": i },
      el("h4", { text: fmt(ctx.S.side, { who: who(i) }) }),
      list(rows.flat().map(card), { lang: "ja" }))));
  } else if (view.field) {
    parts.push(el("p", { text: `${ctx.S.field}: ${view.field.length}` }));
    (view.taken || []).forEach((cards, i) => parts.push(el("section", { class: `board-seat seat-${ctx.colour(i)}`, "data-seat": i },
      el("h4", { text: `${fmt(ctx.S.taken, { who: ctx.label(i) })}: ${cards.length}` }))));
  }
  return parts;
}

/** Genpei: a team's side named by its seats ("Red · Blue"). */
export function sideLabel(teams, side, label) {
  return teams.flatMap((team, seat) => (team === side ? [label(seat)] : [])).join(" · ");
}

const GAMES = { bakudan, bozu, karuta };

/** Draw step `step` into `box`: the move in words, then the board. */
export function drawStep(box, step, ctx) {
  const lines = ctx.lines(step);
  const draw = GAMES[ctx.game];
  box.replaceChildren(
    el("div", { class: "board-move" }, ...lines.map((text) => el("p", { text }))),
    el("div", { class: "board-state" }, ...(draw && step.view ? draw(step.view, ctx) : [])),
  );
}
