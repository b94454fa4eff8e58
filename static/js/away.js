// An absent friend on the board: a "connection lost" mark next to each away seat (the
// board views give each seat's element `data-away-slot`), and the room's CPU notice moved
// onto the board (`[data-away-notice-slot]`), so a player sees why nobody moves without
// scrolling down to the room panel. The boards redraw their seats on every frame: the marks
// are put back whenever the board's elements change.

/** The seats shown as away: people who took a seat in a friend room being played and whose
 * connection is lost. */
export function awaySeats(match) {
  if (!match || match.mode !== "friend" || match.status !== "playing") return [];
  return match.seats.filter((s) => s.kind !== "cpu" && s.taken && !s.connected).map((s) => s.index);
}

export class AwayMarks {
  constructor(doc, label) {
    this.doc = doc;
    this.label = label;
    this.seats = [];
    this.observer = null;
  }

  /** The room's notice lives on the board, where the game is watched. */
  adopt(notice) {
    const slot = this.doc.querySelector("[data-away-notice-slot]");
    if (notice && slot && notice.parentElement !== slot) slot.append(notice);
  }

  update(match) {
    this.seats = awaySeats(match);
    this.apply();
    if (this.seats.length && !this.observer && typeof MutationObserver !== "undefined") {
      this.observer = new MutationObserver(() => this.apply());
      this.observer.observe(this.doc.body, { childList: true, subtree: true });
    } else if (!this.seats.length && this.observer) {
      this.observer.disconnect();
      this.observer = null;
    }
  }

  apply() {
    for (const mark of this.doc.querySelectorAll("[data-away-mark]")) {
      if (!this.seats.includes(Number(mark.dataset.awayMark))) mark.remove();
    }
    for (const seat of this.seats) {
      const slot = this.doc.querySelector(`[data-away-slot='${seat}']`);
      if (!slot || slot.querySelector(`[data-away-mark='${seat}']`)) continue;
      const mark = this.doc.createElement("span");
      mark.className = "away-mark";
      mark.dataset.awayMark = seat;
      mark.textContent = this.label;
      slot.append(mark);
    }
  }
}
