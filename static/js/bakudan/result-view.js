// The result screen: who is left standing, the order the others went out, and the ways on:
// "again with this number" (the menu, filled in with the same game number), "copy the
// game link", a new deal, the menu. In vs-CPU play it opens as soon as the person is out.

import { cap, fmt } from "../text.js";
import { numberLink } from "./outcome.js";
import { showRecordLink } from "../records/link.js";

const $ = (root, sel) => root.querySelector(sel);

export class ResultView {
  constructor(root, S, { seatName, isCpu }) {
    this.root = root;
    this.S = S;
    this.seatName = seatName;
    this.isCpu = isCpu;
    this.link = null;
    this.shownFor = null; // "out" | "final": focus moves here once per stage
    $(root, "[data-copy-link]").addEventListener("click", () => this.copy());
  }

  hide() {
    this.root.hidden = true;
    this.shownFor = null;
    delete this.root.dataset.stage;
  }

  render(result, view, { mine, friend }) {
    const S = this.S;
    const root = this.root;
    if (!result) {
      this.hide();
      return;
    }
    const name = (seat) => cap(this.seatName(seat));
    let title = S.resultTitle;
    const lines = [];
    if (result.meOut) {
      title = S.outTitle;
      lines.push(S.outOver);
      if (result.final && result.winner !== null) lines.push(fmt(S.outSurvivor, { seat: name(result.winner) }));
      else lines.push(S.outPlaying);
    } else if (result.final && result.winner !== null) {
      // On a shared device every seat is "mine": name the winner instead of "you".
      const mineAlone = mine.length === 1 && mine[0] === result.winner;
      lines.push(mineAlone ? S.youWin : fmt(S.winner, { seat: name(result.winner) }));
    }
    $(root, "[data-result-title]").textContent = title;
    $(root, "[data-result-summary]").textContent = lines.join(" ");
    $(root, "[data-result-places]").replaceChildren(...result.order.map(({ seat, place }) => {
      const li = document.createElement("li");
      li.dataset.seat = seat;
      if (place !== null) li.dataset.place = place;
      const who = `${name(seat)}${this.isCpu(seat) ? ` (${S.cpu})` : ""}`;
      li.textContent = place !== null ? fmt(S.place, { place, seat: who }) : fmt(S.stillIn, { seat: who });
      return li;
    }));

    const number = view?.number ?? null;
    const menu = $(root, "[data-menu-link]");
    const again = $(root, "[data-again-number]");
    again.hidden = !number;
    $(root, "[data-copy-link]").hidden = !number;
    $(root, "[data-result-number-box]").hidden = !number;
    if (number) {
      this.link = numberLink(menu.getAttribute("href"), number, location.origin);
      again.href = `${this.link}#menu`;
      $(root, "[data-result-number]").textContent = number;
    }
    $(root, "[data-invite-again]").hidden = !(friend && mine.length);
    const stage = result.final ? "final" : "out";
    root.dataset.stage = stage;
    root.hidden = false;
    if (result.final) showRecordLink(root);
    if (this.shownFor !== stage) {
      // Move the focus here once per stage, unless the person is busy in a text field.
      const busy = document.activeElement instanceof HTMLInputElement;
      if (!busy) root.focus();
      this.shownFor = stage;
    }
  }

  async copy() {
    const status = $(this.root, "[data-link-status]");
    const field = $(this.root, "[data-link-field]");
    if (!this.link) return;
    try {
      await navigator.clipboard.writeText(this.link);
      status.textContent = this.S.copied;
      field.hidden = true;
    } catch {
      field.value = this.link;
      field.hidden = false;
      field.focus();
      field.select();
      status.textContent = this.S.copyFailed;
    }
  }
}
