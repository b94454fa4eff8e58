// Keyboard, mouse and touch on the board: arrow keys move between cards (by where they
// lie), Enter/Space take, typing the beginning of a card jumps to it, Shift + arrows move
// one of your cards between readings, pick up / put down with a click or Enter, and drag
// and drop. The find box ("Find a card") does the same type-ahead with a visible hint.

import { fmt } from "../text.js";
import { matchPoems } from "./typeahead.js";

const $ = (sel) => document.querySelector(sel);
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The nearest card in an arrow's direction, from where the cards lie on screen. */
export function nearest(from, cards, dir) {
  let best = null;
  let bestScore = Infinity;
  for (const c of cards) {
    if (c.id === from.id) continue;
    const dx = c.x - from.x;
    const dy = c.y - from.y;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 4) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + across * 2.5;
    if (score < bestScore) { bestScore = score; best = c; }
  }
  return best;
}

export function bindBoard(game) {
  const board = $("[data-board]");
  const view = () => game.ui.board;
  const centre = (el) => { const r = el.getBoundingClientRect(); return { id: el.dataset.card, el, x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
  const matching = (typed) => {
    const cards = view().visibleCards();
    const poems = matchPoems(typed, cards.map((el) => Number(el.dataset.card)), game.CARDS);
    return poems.map((poem) => view().cardEl(poem));
  };

  let typed = "";
  let typedTimer = null;
  function typeAhead(char) {
    typed += char;
    clearTimeout(typedTimer);
    typedTimer = setTimeout(() => { typed = ""; }, 1200);
    const found = matching(typed);
    if (found.length) {
      found[0].focus();
      $("[data-jump-help]").textContent = fmt(game.S.matchesN, { n: found.length, typed });
    }
  }

  board.addEventListener("keydown", (event) => {
    const card = event.target.closest?.(".kcard");
    if (!card || event.ctrlKey || event.metaKey || event.altKey) return;
    const poem = Number(card.dataset.card);
    if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      if (event.shiftKey && card.classList.contains("own")) {
        const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
        game.moveCard(poem, d[0], d[1]);
      } else {
        nearest(centre(card), view().visibleCards().map(centre), ARROWS[event.key])?.el.focus();
      }
      return;
    }
    if (event.key.length === 1 && event.key !== " " && !event.isComposing) {
      event.preventDefault();
      typeAhead(event.key);
    }
  });

  // Between readings a click (tap, Enter, Space) on one of your cards picks it up and the
  // next click on one of your cards (or an empty place in a row) puts it down there: the
  // way to rearrange on a touch screen, and a second keyboard way.
  function pickOrPlace(card, row) {
    if (game.picked === null) {
      if (!card) return;
      game.picked = Number(card.dataset.card);
      card.classList.add("picked");
      game.ui.panel.announce(game.S.picked);
      return;
    }
    const poem = game.picked;
    game.picked = null;
    document.querySelector(".kcard.picked")?.classList.remove("picked");
    const target = card ? Number(card.dataset.card) : null;
    if (target === poem) return;
    game.dropOn(poem, Number(row.dataset.row), target);
    view().cardEl(poem)?.focus();
    game.ui.panel.announce(game.S.moved);
  }

  board.addEventListener("click", (event) => {
    const card = event.target.closest(".kcard");
    const ownRow = event.target.closest(".side-own .krow");
    if (ownRow && game.canArrange() && (!card || card.classList.contains("own"))) {
      pickOrPlace(card, ownRow);
      return;
    }
    game.picked = null;
    if (card) game.take(Number(card.dataset.card));
  });

  let dragged = null;
  board.addEventListener("dragstart", (event) => {
    const card = event.target.closest?.(".kcard.own");
    if (!card || !game.canArrange()) { event.preventDefault(); return; }
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
    game.dropOn(dragged, Number(row.dataset.row), before);
    dragged = null;
  });
  board.addEventListener("dragend", () => { dragged = null; });

  const jump = $("[data-jump]");
  const clearMatches = () => { for (const el of document.querySelectorAll(".kcard.is-match")) el.classList.remove("is-match"); };
  jump.addEventListener("input", () => {
    clearMatches();
    const found = jump.value ? matching(jump.value) : [];
    for (const el of found) el.classList.add("is-match");
    $("[data-jump-help]").textContent = jump.value ? fmt(game.S.matchesN, { n: found.length, typed: jump.value }) : game.S.jumpHelp;
  });
  jump.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      const found = matching(jump.value);
      if (found.length) { found[0].focus(); jump.value = ""; clearMatches(); }
    }
  });
}
