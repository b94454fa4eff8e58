// The table: deck with the danger under it, the discard pile, the seats, and the info
// panel (notes, the seat's own bomb note, what it drew last). Everything here is drawn
// from the latest view; clearPrivate() empties what belongs to one seat (blind screen).

import { cap, fmt } from "../text.js";
import { dangerModel } from "./danger.js";
import { fromTop, notesLayout } from "./notes.js";
import { seatRows } from "./seats.js";

const $ = (root, sel) => root.querySelector(sel);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

export class BoardView {
  constructor(root, S, lang, away = null) {
    this.root = root;
    this.S = S;
    this.lang = lang;
    this.away = away; // away.js: an absent friend's mark and countdown by their seat
  }

  kindName(kind) {
    return this.S.kinds[kind] ?? kind;
  }

  colourName(colour) {
    return cap(this.S.colours[colour] ?? colour);
  }

  render(view, match, viewSeat) {
    const S = this.S;
    const root = this.root;
    const danger = dangerModel(view, this.lang);
    if (danger) {
      $(root, "[data-deck-count]").textContent = view.deck_count;
      $(root, "[data-deck-count-big]").textContent = view.deck_count;
      const box = $(root, "[data-danger]");
      box.dataset.level = danger.level;
      $(root, "[data-danger-percent]").textContent = `${danger.percent} · ${S.dangerLevels[danger.level]}`;
      $(root, "[data-danger-detail]").textContent = fmt(S.dangerDetail, { bombs: danger.bombs, cards: danger.cards });
      $(root, "[data-danger-bar]").style.width = danger.width;
      // The same figures next to the draw button, for a phone where the deck is scrolled away.
      const near = $(root, "[data-panel-danger]");
      near.dataset.level = danger.level;
      near.textContent = fmt(S.panelDanger, { cards: danger.cards, percent: danger.percent });
      $(root, "[data-discard-count]").textContent = view.discard_count;
      const top = view.discard_top;
      $(root, "[data-discard-top]").dataset.kind = top ? top.kind : "none";
      $(root, "[data-discard-text]").textContent = top ? fmt(S.discardTop, { kind: this.kindName(top.kind) }) : S.noDiscard;
    }
    this.renderSeats(view, match, viewSeat);
    this.renderNotes(view);
  }

  renderSeats(view, match, viewSeat) {
    const S = this.S;
    const rows = seatRows(view, match, (c) => this.colourName(c)).map((seat) => {
      const tr = el("tr", { dataset: { seat: seat.index, colour: seat.colour } });
      if (seat.toAct) tr.classList.add("to-act");
      if (!seat.alive) tr.classList.add("is-out");
      const who = [seat.name];
      if (seat.cpu) who.push(`(${S.cpu}${seat.cpuLevel && S.levels[seat.cpuLevel] ? ` · ${S.levels[seat.cpuLevel]}` : ""})`);
      else if (seat.index === viewSeat && match?.mode !== "hotseat") who.push(`(${S.you})`);
      const th = el("th", { scope: "row" }, el("span", { className: `seat-chip seat-${seat.colour}`, "aria-hidden": "true" }), who.join(" "),
        ...(this.away?.marks(match, seat.index) ?? []));
      const count = el("td", { dataset: { handCount: seat.index } }, seat.handCount === null ? "" : String(seat.handCount));
      const state = [];
      if (!seat.alive) state.push(seat.place ? fmt(S.outPlace, { place: seat.place }) : S.out);
      else {
        if (seat.toAct) state.push(seat.owed > 1 ? `${S.toAct} · ${fmt(S.owedLabel, { n: seat.owed })}` : S.toAct);
        if (seat.shield) state.push(S.shielded);
      }
      const td = el("td", { dataset: { seatState: seat.index } }, state.join(" · ") || S.inGame);
      tr.append(th, count, td);
      return tr;
    });
    $(this.root, "[data-seats]").replaceChildren(...rows);
  }

  renderNotes(view) {
    const S = this.S;
    const list = $(this.root, "[data-notes]");
    const bombNote = $(this.root, "[data-bomb-note]");
    const lastDraw = $(this.root, "[data-last-draw]");
    if (!view || !Array.isArray(view.hand)) {
      // A spectator (or a blind device) has no notes: show nothing rather than "unknown".
      list.replaceChildren();
      bombNote.hidden = true;
      lastDraw.hidden = true;
      return;
    }
    const layout = notesLayout(view.notes, view.deck_count);
    list.replaceChildren(...layout.slots.map((slot) => {
      const text = slot.state === "known" ? this.kindName(slot.kind) : slot.state === "none" ? S.slotNone : S.slotUnknown;
      return el("li", { className: `note-slot note-${slot.state}`, dataset: { slot: slot.position, kind: slot.kind ?? "" } },
        el("span", { className: "slot-label" }, fmt(S.slot, { n: fromTop(slot.position) })),
        el("b", {}, text));
    }));
    const lines = [];
    if (layout.bomb) lines.push(fmt(S.bombNote, { n: fromTop(layout.bomb.position) }));
    for (const note of layout.deeper) {
      if (note.kind !== "bomb") lines.push(fmt(S.deeperNote, { kind: this.kindName(note.kind), n: fromTop(note.position) }));
    }
    bombNote.textContent = lines.join(" ");
    bombNote.hidden = lines.length === 0;
    if (view.last_draw) {
      lastDraw.textContent = fmt(S.lastDraw, { kind: this.kindName(view.last_draw.kind) });
      lastDraw.hidden = false;
    } else {
      lastDraw.hidden = true;
    }
  }

  /** The blind screen: remove every trace of the last seat's private view from the page. */
  clearPrivate() {
    this.renderNotes(null);
    $(this.root, "[data-last-draw]").textContent = "";
    $(this.root, "[data-bomb-note]").textContent = "";
  }
}
