// The Bozu table: one pile per seat (its height follows the count, its top card face up),
// the field in the middle, the draw pile, and the motions of a frame (a flip from the
// pile; a monk's hand sliding to the field; the field sliding to a princess's drawer;
// skipped turns and extra draws written on the table). State is drawn first, at once; a
// new frame finishes whatever is still moving, so motion never holds the game back.

import { seatColour } from "../seats.js";
import { cap } from "../text.js";
import { backSvg, faceSvg, pileLayers } from "./face.js";

const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Write a property only when it differs (a write, even of the same value, dirties style). */
function set(target, name, value) {
  if (target[name] !== value) target[name] = value;
}

// A pile's markup, then its layer offsets set through the CSSOM: the site's CSP
// (style-src 'self') refuses style attributes written into markup. Written only when the
// pile changed: a frame moves one or two piles, and every pile rewritten cost the page a
// layout of all its faces each frame.
function fillPile(el, count, top, label) {
  const key = JSON.stringify([count, top, label]);
  if (el.pileKey === key) return;
  el.pileKey = key;
  const layers = pileLayers(count);
  const edges = Array.from({ length: layers }, () => `<span class="pile-edge"></span>`).join("");
  const face = top ? faceSvg(top, label) : count ? backSvg() : "";
  el.innerHTML = `${edges}<span class="pile-top">${face}</span>`;
  el.querySelectorAll(".pile-edge").forEach((edge, i) => edge.style.setProperty("--i", String(i)));
  el.querySelector(".pile-top").style.setProperty("--layers", String(layers));
}

export class BoardView {
  constructor(root, { cards, strings, names, away }) {
    this.root = root;
    this.cards = cards;
    this.S = strings;
    this.names = names; // (seat) => the seat's name
    this.away = away; // away.js: an absent friend's mark and countdown by their seat
    this.surface = root.querySelector(".table-surface");
    this.running = [];
    this.drawn = root.querySelector("[data-drawn-card]");
  }

  card(poem) {
    const c = this.cards[poem];
    return c ? { poet: c.poet, class: c.class } : null;
  }

  render(view, match) {
    if (!view) return;
    // The seats' areas are kept from frame to frame (the same players): what changed in
    // each is written, the rest left as it is (fillPile, set).
    const box = this.root.querySelector("[data-seat-areas]");
    const kept = box.children.length === view.players && box.firstElementChild?.classList.contains(`of-${view.players}`);
    if (!kept) {
      box.replaceChildren(...view.hand_counts.map((_, seat) => {
        const area = document.createElement("div");
        area.dataset.seat = seat;
        const stack = document.createElement("div");
        stack.className = "card-pile";
        const label = document.createElement("span");
        label.dataset.seatLabel = seat;
        area.append(stack, label);
        return area;
      }));
    }
    view.hand_counts.forEach((count, seat) => {
      const area = box.children[seat];
      const [stack, label] = area.children;
      set(area, "className", `seat-area seat-pos-${seat} of-${view.players}${seat === view.to_act && !view.over ? " to-act" : ""}`);
      const top = view.hands[seat][view.hands[seat].length - 1];
      set(stack.dataset, "colour", seatColour(match, seat));
      set(stack.dataset, "count", String(count));
      const card = top ? this.card(top) : null;
      fillPile(stack, count, card, card && this.S.classes[card.class]);
      set(label, "className", `stack-label seat-${seatColour(match, seat)}`);
      const text = `${cap(this.names(seat))} ${count}`;
      const skip = view.skip_next[seat] ? this.S.skipNext : "";
      if (label.labelKey !== text + skip) {
        label.labelKey = text + skip;
        label.textContent = text;
        if (skip) {
          const flag = document.createElement("span");
          flag.className = "skip-flag";
          flag.textContent = skip;
          label.append(flag);
        }
      }
      // The toast and the away marks are made anew, as before: a toast left from the last
      // frame is cut (BoardView.cut) and must not hide the next one.
      for (const old of [...area.children].slice(2)) old.remove();
      const toast = document.createElement("span");
      toast.className = "seat-toast";
      toast.dataset.seatToast = seat;
      toast.hidden = true;
      area.append(toast, ...(this.away?.marks(match, seat) ?? []));
    });
    const field = this.root.querySelector("[data-field-stack]");
    const fieldTop = view.field[view.field.length - 1];
    const fieldCard = fieldTop ? this.card(fieldTop) : null;
    fillPile(field, view.field_count, fieldCard, fieldCard && this.S.classes[fieldCard.class]);
    field.dataset.count = view.field_count;
    const pile = this.root.querySelector("[data-pile-stack]");
    fillPile(pile, view.pile_count, null);
    pile.dataset.count = view.pile_count;
  }

  /** Finish every running motion at once (its end state is already on the table). */
  cut() {
    for (const animation of [...this.running]) animation.finish();
    this.running = [];
    for (const ghost of this.surface.querySelectorAll(".ghost")) ghost.remove();
  }

  animate(el, keyframes, options) {
    const animation = el.animate(keyframes, options);
    this.running.push(animation);
    animation.finished.then(() => { this.running = this.running.filter((a) => a !== animation); }, () => {});
    return animation;
  }

  where(selector) {
    const el = this.surface.querySelector(selector);
    if (!el) return null;
    let x = el.offsetWidth / 2;
    let y = el.offsetHeight / 2;
    for (let node = el; node && node !== this.surface; node = node.offsetParent) { x += node.offsetLeft; y += node.offsetTop; }
    return { x, y };
  }

  slide(from, to, cards, face) {
    const a = this.where(from);
    const b = this.where(to);
    if (!a || !b) return;
    const ghost = document.createElement("div");
    ghost.className = "ghost card-pile";
    ghost.setAttribute("aria-hidden", "true");
    fillPile(ghost, cards, face, "");
    ghost.style.left = `${a.x}px`;
    ghost.style.top = `${a.y}px`;
    this.surface.append(ghost);
    this.animate(ghost, [
      // Lifted by its size, not translateZ: the table is flat (play.css says why).
      { transform: "translate(-50%, -50%) scale(1.12)" },
      { transform: `translate(calc(-50% + ${b.x - a.x}px), calc(-50% + ${b.y - a.y}px)) scale(1.12)` },
    ], { duration: 520, easing: "cubic-bezier(.3,.7,.3,1)" }).finished.then(() => ghost.remove(), () => ghost.remove());
  }

  toast(seat, text) {
    const el = this.root.querySelector(`[data-seat-toast='${seat}']`);
    if (!el || !text) return;
    el.textContent = text;
    el.hidden = false;
    // Without motion the words stay on the table until the next frame.
    if (!reduced()) {
      this.animate(el, [{ opacity: 0, transform: "translateY(.5rem)" }, { opacity: 1, transform: "none", offset: 0.15 }, { opacity: 1, offset: 0.8 }, { opacity: 0 }], { duration: 2600 })
        .finished.then(() => { el.hidden = true; }, () => {});
    }
  }

  /** Show the drawn card big in the middle of the table; it flips from the pile. */
  flip(card) {
    if (!card) return;
    // Without motion the card simply lies face up on its pile (the top of every pile shows).
    if (reduced()) return;
    this.drawn.innerHTML = faceSvg(card, this.S.classes[card.class]);
    this.drawn.dataset.class = card.class;
    this.drawn.hidden = false;
    const flip = this.animate(this.drawn, [
      { transform: "translate(var(--from-x, 30%), 10%) rotateY(180deg) scale(.45)", opacity: 0.4 },
      { transform: "rotateY(90deg) scale(.8)", opacity: 1, offset: 0.35 },
      { transform: "none", opacity: 1, offset: 0.6 },
      { transform: "none", opacity: 1, offset: 0.85 },
      { transform: "scale(.9)", opacity: 0 },
    ], { duration: 1500, easing: "ease-out" });
    this.flipping = flip;
    // A cut flip settles after the next one began: only the latest may hide the card.
    flip.finished.then(() => { if (this.flipping === flip) this.drawn.hidden = true; }, () => {});
  }

  play(motions) {
    this.cut();
    const still = reduced();
    for (const m of motions) {
      if (m.kind === "flip") this.flip(this.card(m.poem));
      else if (m.kind === "skipped" || m.kind === "skip_next" || m.kind === "extra") this.toast(m.seat, m.text);
      if (still) continue;
      if (m.kind === "to_field") this.slide(`[data-seat='${m.seat}'] .card-pile`, "[data-field-stack]", m.cards, null);
      if (m.kind === "took_field") this.slide("[data-field-stack]", `[data-seat='${m.seat}'] .card-pile`, m.cards, null);
      if (m.kind === "others_to_field") for (const o of m.moved) this.slide(`[data-seat='${o.seat}'] .card-pile`, "[data-field-stack]", o.cards, null);
    }
  }
}
