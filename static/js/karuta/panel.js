// The reader (reading lines, memorisation countdown, prompt, the last result with who took
// it and when) and the panel (seat counts and otetsuki, the log, the solo take times).

import { fmt } from "../text.js";
import { minutes, readingAt, secs } from "./clock.js";
import { torifudaColumns } from "./layout.js";
import { isSided, sendChooser } from "./sides.js";

const $ = (sel) => document.querySelector(sel);

export class Panel {
  constructor(game) {
    this.g = game;
    this.soloRows = new Set();
    this.flashUntil = {}; // seat -> time: a re-render within it keeps the counter flashing
  }

  renderReading() {
    const { cur, view } = this.g;
    const lineBox = $("[data-reading-line]");
    const prevBox = $("[data-reading-prev]");
    const lowerBox = $("[data-reading-lower]");
    if (!cur) { this.shownLine = null; lineBox.replaceChildren(); prevBox.textContent = ""; lowerBox.textContent = ""; return; }
    const { r } = cur;
    const shownT = this.g.tShown(); // with the voice, when it is heard
    const at = readingAt(r, shownT, view && this.g.markKimariji());
    // Called on every tick (frame-loop.js): the boxes are written only when what they show
    // changed, so a tick that finds nothing new costs no style, layout or paint work.
    const key = JSON.stringify([shownT < 0, at]);
    if (key === this.shownLine) return;
    this.shownLine = key;
    prevBox.textContent = at.prev;
    if (at.part) prevBox.dataset.part = at.part;
    if (shownT < 0) { lineBox.replaceChildren(); lowerBox.textContent = ""; return; }
    // Only the kana released and due so far: the page never knows more of the poem.
    const decided = document.createElement("mark");
    decided.className = "kimariji";
    decided.textContent = at.upper.slice(0, at.decided).join("");
    const rest = document.createTextNode(at.upper.slice(at.decided).join(""));
    lineBox.replaceChildren(...(at.decided ? [decided] : []), rest);
    lineBox.dataset.shown = at.shown;
    lowerBox.textContent = at.lower;
  }

  /** When the game ends: no reading left on screen, no stale type-ahead hint. */
  clearReading() {
    this.shownLine = null;
    $("[data-reading-line]").replaceChildren();
    $("[data-reading-prev]").textContent = "";
    $("[data-reading-lower]").textContent = "";
    this.newReading();
  }

  /** A new poem: what was typed in the find box and a refused touch were about the last one. */
  newReading() {
    this.showRefusal(null);
    const jump = $("[data-jump]");
    if (jump) jump.value = "";
    for (const el of document.querySelectorAll(".kcard.is-match")) el.classList.remove("is-match");
    $("[data-jump-help]").textContent = this.g.S.jumpHelp;
  }

  /** A touch the server refused (too fast to be a reaction, say), by the reading, where it
   * is seen: the log alone is off the screen on a phone. null hides it. */
  showRefusal(text) {
    const box = $("[data-touch-refused]");
    if (!box) return;
    box.textContent = text ?? "";
    box.hidden = !text;
  }

  renderMemorise() {
    const g = this.g;
    const box = $("[data-memorise]");
    // Written only when it changes: this runs on every tick, and writing `hidden` (even the
    // same value) recalculated the page's style each time.
    const phase = Boolean(g.view) && g.view.phase === "memorise" && g.resigned() === null;
    // No memorisation time (settings.ready_first): the phase only waits for the pages to be
    // able to play, so there is nothing to count down or skip; this page is ready at once.
    const instant = phase && g.view.settings.memorise_seconds === 0;
    const shown = phase && !instant;
    if (box.hidden === shown) box.hidden = !shown;
    if (instant) g.ready();
    if (!shown) return;
    if (g.memoriseEnd === null) g.memoriseEnd = g.now() + g.view.settings.memorise_seconds * 1000;
    const left = Math.max(0, Math.ceil((g.memoriseEnd - g.now()) / 1000));
    const el = $("[data-memorise-left]");
    const text = minutes(left);
    if (el.textContent !== text) el.textContent = text;
    const skip = $("[data-skip]");
    const off = g.readySent || !g.view.to_act.includes(g.you());
    if (skip.disabled !== off) skip.disabled = off;
    if (left === 0) g.ready();
  }

  promptText() {
    const g = this.g;
    const { view, match, S } = g;
    if (!match) return "";
    if (match.status === "waiting") return S.waiting;
    if (!view) return "";
    if (view.phase === "over") return "";
    if (view.phase === "memorise") {
      if (g.readySent || !view.to_act.includes(g.you())) return S.waitReady;
      return view.mode === "genpei" ? S.memoriseTeam : isSided(view.mode) ? S.memoriseArrange : S.memorise;
    }
    if (view.phase === "send") {
      const genpei = view.mode === "genpei";
      if (g.sending()) return fmt(genpei ? S.chooseSendTeam : S.chooseSend, { n: view.send.remaining });
      return fmt(genpei ? S.teamSends : S.cpuSends, { who: g.name(sendChooser(view.send)) });
    }
    const r = view.reading;
    if (!r || !g.cur) return "";
    if (r.sitting_out.includes(g.you())) return S.sittingOut;
    if (g.tNow() < 0) return g.canArrange() ? S.listenArrange : S.listen;
    if (g.active()) return S.take;
    return S.waitOthers;
  }

  renderPrompt() {
    const text = this.promptText();
    const box = $("[data-prompt]");
    if (box.textContent !== text) box.textContent = text;
    const arrangeNow = this.g.canArrange();
    if (document.body.classList.contains("can-arrange") !== arrangeNow) document.body.classList.toggle("can-arrange", arrangeNow);
  }

  renderStatus() {
    const { view, S } = this.g;
    const box = $("[data-reading-status]");
    if (!view) return;
    const r = view.reading;
    if (view.phase === "over") box.textContent = S.over;
    else if (r) box.textContent = fmt(S.readingStatus, { n: r.number, left: view.unread_count });
    else box.textContent = "";
  }

  renderCounts(flashSeat = null) {
    const g = this.g;
    const { view, S } = g;
    $("[data-count-head]").textContent = isSided(view.mode) ? S.cardsLeftHead : S.cardsTakenHead;
    $("[data-seat-counts]").replaceChildren(...view.seats.map((_, seat) => {
      const tr = document.createElement("tr");
      tr.dataset.seat = seat;
      const th = document.createElement("th");
      th.scope = "row";
      const chip = document.createElement("span");
      chip.className = `seat-chip seat-${this.g.colour(seat)}`;
      th.append(chip, g.label(seat));
      const n = document.createElement("td");
      n.dataset.seatCount = seat;
      n.textContent = g.count(seat);
      const o = document.createElement("td");
      o.dataset.faults = seat;
      o.textContent = g.faults(seat);
      if ((this.flashUntil[seat] ?? 0) > performance.now()) o.classList.add("fault");
      tr.append(th, n, o);
      return tr;
    }));
    if (flashSeat !== null) this.flashFault(flashSeat);
  }

  /** The fault counter flashes (with the card, for your own touch: see BoardView.fault). */
  flashFault(seat) {
    this.flashUntil[seat] = performance.now() + 1500;
    const cell = document.querySelector(`[data-faults='${seat}']`);
    if (cell) cell.classList.add("fault");
  }

  announce(text) { $("[data-announcer]").textContent = text; }

  log(text, speakIt = true) {
    const li = document.createElement("li");
    li.textContent = text;
    const list = $("[data-log]");
    list.prepend(li);
    while (list.children.length > 40) list.lastChild.remove();
    if (speakIt) this.announce(text);
  }

  /** The last reading's card, who took it and when, and what happened, in words. */
  showResult(result, lines) {
    const g = this.g;
    $("[data-last-result]").hidden = false;
    const card = $("[data-last-card]");
    card.replaceChildren(...torifudaColumns(g.CARDS[result.poem].tori).map((c) => {
      const col = document.createElement("span");
      col.className = "kcol";
      col.textContent = c;
      return col;
    }));
    card.className = "last-card kcard-face";
    const taker = result.taker ?? (g.view.mode === "solo" && result.t !== null ? 0 : null);
    if (taker !== null) card.classList.add(`taken-by-${this.g.colour(taker)}`);
    const badge = $("[data-last-taker]");
    badge.hidden = taker === null;
    if (taker !== null) {
      badge.className = `taker-badge seat-${this.g.colour(taker)}`;
      badge.textContent = `${g.name(taker)} · ${secs(result.t)} s`;
    }
    $("[data-last-lines]").replaceChildren(...lines.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
  }

  addSoloRow(result) {
    const g = this.g;
    if (this.soloRows.has(result.number)) return;
    this.soloRows.add(result.number);
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.lang = "ja";
    name.textContent = g.cardLabel(result.poem);
    const t = document.createElement("td");
    t.textContent = result.t === null ? g.S.missed : `${secs(result.t)} s`;
    const after = document.createElement("td");
    after.textContent = result.t === null ? "—" : `${secs(result.after_kimariji)} s`;
    if (result.wrong.length) after.textContent += ` · ${fmt(g.S.wrongN, { n: result.wrong.length })}`;
    tr.append(name, t, after);
    $("[data-solo-rows]").prepend(tr);
  }

  renderSoloTable() {
    const { view } = this.g;
    const box = $("[data-solo-times]");
    box.hidden = view.mode !== "solo";
    if (view.mode !== "solo") return;
    (view.records || []).forEach((rec, i) => this.addSoloRow({ ...rec, number: i + 1 }));
  }
}
