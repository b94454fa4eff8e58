// The karuta board: the competitive sides (yours below the line, the opponent's upside
// down across it) or the chirashi / solo field, the taken piles, the marks of touches,
// and the otetsuki flash.

import { AwayMarks } from "../away.js";
import { fmt } from "../text.js";
import { secs } from "./clock.js";
import { longestRow, scatterColumns, scatterOrder, scatterPlace, sideRows, torifudaColumns } from "./layout.js";
import { halfRow, isSided, seatsOfSide, sideCount } from "./sides.js";

const $ = (sel) => document.querySelector(sel);

export class BoardView {
  constructor(game) {
    this.g = game;
    this.faulted = new Map(); // poem -> reading number: a fault stays marked through re-renders
    this.away = AwayMarks.fromPage(() => game.now()); // an absent friend's mark by their pile
  }

  cardEl(poem) { return document.querySelector(`.kcard[data-card='${poem}']`); }
  visibleCards() { return [...document.querySelectorAll("[data-board] .kcard")]; }

  makeCard(poem, { upsideDown = false, rotate = null, own = false } = {}) {
    const g = this.g;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "kcard";
    button.dataset.card = poem;
    button.lang = "ja";
    const kimariji = g.view.kimariji?.[poem];
    // The accessible name is the card's own text (torifuda, then its kimariji).
    const face = document.createElement("span");
    face.className = "kcard-face";
    if (upsideDown) face.classList.add("upside-down");
    for (const column of torifudaColumns(g.CARDS[poem].tori)) {
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
    if (kimariji) {
      const k = document.createElement("span");
      k.className = "kcard-kimariji";
      k.textContent = g.CARDS[poem].kami.slice(0, kimariji);
      button.append(k);
    }
    if (rotate !== null) button.style.setProperty("--rot", `${rotate}deg`);
    if (own) {
      button.classList.add("own");
      if (g.picked === poem) button.classList.add("picked");
      button.draggable = true;
    }
    // Marked only for the reading it happened in: with no reading on (memorisation, the
    // send) both sides would be undefined and every card would wear the ring.
    const reading = g.view.reading?.number;
    if (reading !== undefined && reading !== null && this.faulted.get(poem) === reading) button.classList.add("fault");
    for (const [s, card] of g.view.reading?.touches ?? []) {
      if (card === poem && (s === g.you() || g.cur?.shownTouches.has(`${s}:${card}`))) {
        button.classList.add("touched", s === g.you() ? "by-you" : `by-${this.g.colour(s)}`);
      }
    }
    return button;
  }

  renderRows(box, rows, opponent) {
    box.replaceChildren(...sideRows(rows, opponent).map(({ row: r, cards }) => {
      const row = document.createElement("div");
      row.className = "krow";
      row.dataset.row = r;
      row.append(...cards.map((poem) => this.makeCard(poem, { upsideDown: opponent, own: !opponent })));
      return row;
    }));
  }

  render() {
    const g = this.g;
    const { view, S } = g;
    if (!view) return;
    const focused = document.activeElement?.dataset?.card;
    const focusIndex = focused ? this.visibleCards().indexOf(document.activeElement) : -1;
    // Genpei (源平戦) lies out on the competitive board: a side is a team's, shared by its seats.
    const competitive = isSided(view.mode);
    const genpei = view.mode === "genpei";
    for (const sel of ["[data-side-opponent]", "[data-side-own]", "[data-centre-line]", "[data-caption-opponent]", "[data-caption-own]"]) $(sel).hidden = !competitive;
    $("[data-scatter]").hidden = competitive;
    $("[data-piles]").hidden = competitive;
    $("[data-board]").classList.toggle("is-competitive", competitive);
    $("[data-board]").classList.toggle("is-genpei", genpei);
    if (competitive) {
      const me = g.mySide();
      const perRow = longestRow(view.sides);
      $("[data-board]").style.setProperty("--per-row", perRow); // a phone fits this row
      $("[data-board]").style.setProperty("--half-row", halfRow(perRow)); // genpei: your rows wrap
      for (const [sel, side, opponent] of [["opponent", 1 - me, true], ["own", me, false]]) {
        const box = $(`[data-side-${sel}]`);
        this.renderRows(box, view.sides[side], opponent);
        const seats = seatsOfSide(view, side);
        const text = genpei
          ? fmt(S.teamSide, { team: S.teams[side], who: seats.map((s) => g.label(s)).join(", "), n: sideCount(view.sides[side]) })
          : fmt(S.sideOf, { who: g.label(side), n: g.count(side) });
        box.setAttribute("aria-label", text);
        box.setAttribute("role", "group");
        const caption = $(`[data-caption-${sel}]`);
        caption.dataset.seat = seats[0];
        caption.dataset.side = side;
        caption.textContent = text;
        for (const seat of seats) caption.append(...this.away.marks(g.match, seat));
      }
    } else {
      const scatter = $("[data-scatter]");
      const columns = scatterColumns(view.pool_size);
      scatter.style.setProperty("--cols", columns);
      scatter.replaceChildren(...scatterOrder(view.field, columns).map(([poem, x, y, deg]) => {
        const card = this.makeCard(poem, { rotate: deg });
        Object.assign(card.style, scatterPlace(x, y));
        return card;
      }));
      this.renderPiles();
    }
    document.body.classList.toggle("sending", g.sending());
    document.body.classList.toggle("can-arrange", g.canArrange());
    if (focused) {
      // A card taken from under the focus: keep the focus on the board, on its neighbour.
      const cards = this.visibleCards();
      const again = this.cardEl(focused) ?? cards[Math.min(focusIndex, cards.length - 1)];
      again?.focus({ preventScroll: true });
    }
  }

  renderPiles() {
    const g = this.g;
    $("[data-piles]").replaceChildren(...g.view.taken.map((cards, seat) => {
      const pile = document.createElement("div");
      pile.className = `pile-box seat-${this.g.colour(seat)}`;
      pile.dataset.seat = seat;
      // The pile's height follows the count (one edge per two cards, at most 12).
      pile.style.setProperty("--layers", Math.min(12, Math.ceil(cards.length / 2)));
      const title = document.createElement("span");
      title.className = "pile-title";
      title.textContent = g.label(seat);
      const n = document.createElement("b");
      n.dataset.takenCount = seat;
      n.textContent = fmt(g.S.cardsTaken, { n: cards.length });
      pile.append(title, n);
      if (cards.length) {
        const top = document.createElement("span");
        top.className = "pile-top";
        top.lang = "ja";
        top.textContent = g.cardLabel(cards[cards.length - 1]);
        pile.append(top);
      }
      if (g.view.reading?.sitting_out.includes(seat)) {
        const out = document.createElement("span");
        out.className = "pile-out";
        out.textContent = g.S.sitsOut;
        pile.append(out);
      }
      pile.append(...this.away.marks(g.match, seat));
      return pile;
    }));
  }

  /** Mark a card touched by a seat (a badge with the seat's initial for other seats). */
  touched(poem, seat) {
    const el = this.cardEl(poem);
    if (!el) return;
    const you = seat === this.g.you();
    el.classList.add("touched", you ? "by-you" : `by-${this.g.colour(seat)}`);
    if (!you) {
      const badge = document.createElement("span");
      badge.className = `touch-badge seat-${this.g.colour(seat)}`;
      badge.textContent = this.g.name(seat).slice(0, 1);
      el.append(badge);
    }
  }

  /** Other seats' touches, when the reader's clock reaches them. */
  showTouches(t) {
    const g = this.g;
    const r = g.view?.reading;
    if (!r || r.number !== g.cur.number) return;
    for (const [seat, card, tt] of r.touches) {
      const key = `${seat}:${card}`;
      if (seat === g.you() || tt > t || g.cur.shownTouches.has(key)) continue;
      g.cur.shownTouches.add(key);
      this.touched(card, seat);
      g.ui.panel.log(fmt(g.S.touched, { who: g.name(seat), card: g.cardLabel(card), t: secs(tt) }), false);
    }
  }

  /** An otetsuki: the card flashes (and stays marked) at once. */
  fault(poem) {
    this.faulted.set(poem, this.g.view.reading?.number);
    const el = this.cardEl(poem);
    if (!el) return;
    el.classList.remove("fault");
    void el.offsetWidth; // restart the flash
    el.classList.add("fault");
  }
}
