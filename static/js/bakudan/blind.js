// The blind screen of a shared device (hot-seat with hidden hands): "Pass the device to
// Blue" and "I am Blue — show me". While it shows, the board is hidden and every private
// trace of the previous player has been removed from the page (BoardView.clearPrivate,
// the hand and the log), so looking at the screen — or at the DOM — reveals nothing.

import { fmt } from "../text.js";

export class Blind {
  constructor(root, board, S, onReveal) {
    this.root = root;
    this.board = board;
    this.S = S;
    this.seat = null;
    this.button = root.querySelector("[data-reveal]");
    this.button.addEventListener("click", () => {
      if (this.seat !== null) {
        this.button.setAttribute("aria-disabled", "true");
        onReveal(this.seat);
      }
    });
  }

  get shown() {
    return !this.root.hidden;
  }

  show(seat, name, colour) {
    const again = this.shown && this.seat === seat;
    if (!again) this.root.querySelector("[data-blind-error]").textContent = "";
    this.seat = seat;
    this.root.dataset.colour = colour;
    this.root.querySelector("[data-blind-title]").textContent = fmt(this.S.passTo, { seat: name });
    this.button.textContent = fmt(this.S.revealAs, { seat: name });
    this.button.className = `big-start seat-button seat-${colour}`;
    this.button.setAttribute("aria-disabled", "false");
    this.board.hidden = true;
    this.root.hidden = false;
    if (!again) this.button.focus();
  }

  hide() {
    if (!this.shown) return;
    this.root.hidden = true;
    this.board.hidden = false;
    this.seat = null;
  }
}
