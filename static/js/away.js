// An absent friend on the board: each board view draws, by every away seat, a "connection
// lost" mark and, while the server counts down to playing for them (or to putting them out),
// how long is left. It is drawn from the seat's state in the frame (`connected`, and
// `cpu_at`: the takeover's moment on the server's clock) on every render of the seat, like
// the rest of the seat; between frames the countdowns tick on the server's clock (the match
// client's `serverNow()`, clock-sync.js), so a held, repeated or late frame shows the same
// seconds as any other.
//
//   const away = new AwayMarks(roomStrings, () => client.serverNow());
//   seatElement.append(...away.marks(match, seat));   // in the board view's render

import { cap, fmt } from "./text.js";

const TICK_MS = 1000;

/** The seats shown as away: people who took a seat in a friend room being played and whose
 * connection is lost. */
export function awaySeats(match) {
  if (!match || match.mode !== "friend" || match.status !== "playing") return [];
  return match.seats.filter((s) => s.kind !== "cpu" && s.taken && !s.connected).map((s) => s.index);
}

/** Seat `index`'s away state from the frame: null while they are here (or not in a friend
 * room being played); else `{ at, out }`, `at` the server epoch ms at which the CPU plays for
 * them (or they are out, `out`), null when no countdown runs (not their turn). */
export function awayState(match, index) {
  if (!awaySeats(match).includes(index)) return null;
  const seat = match.seats.find((s) => s.index === index);
  return { at: Number.isFinite(seat.cpu_at) ? seat.cpu_at : null, out: match.on_leave === "out" };
}

/** The present person whose idle turn the server counts down to (a rated turn-based game
 * plays a turn left 45 s without a move: matches/clock.py `takeover_at`), or null: a seat
 * to act, connected, with a takeover moment in the frame. The server sends that moment for a
 * connected seat only then, so nothing else is decided here. */
export function idleSeat(match) {
  if (!match || match.status !== "playing") return null;
  return match.seats.find((s) => s.kind !== "cpu" && s.taken && s.connected
    && (match.to_act ?? []).includes(s.index) && Number.isFinite(s.cpu_at)) ?? null;
}

/** Whole seconds left until `at` at server time `now` (rounded up: "1 s" until it is due). */
export const secondsLeft = (at, now) => Math.max(0, Math.ceil((at - now) / 1000));

/** The countdown's words at server time `now`: "" without a countdown; "The CPU plays in
 * 12 s", then "The CPU is playing" once due (or "Out in 12 s", "Out of the game" where
 * leavers are out). */
export function countdownText(S, state, now) {
  if (!state || state.at === null) return "";
  const left = secondsLeft(state.at, now);
  const [soon, due] = state.out ? [S.markOutSoon, S.markOutNow] : [S.markCpuSoon, S.markCpuNow];
  return cap(left > 0 ? fmt(soon ?? "", { s: left }) : due ?? "");
}

export class AwayMarks {
  /** strings: the room's (`away`, `markCpuSoon`, `markCpuNow`, `markOutSoon`, `markOutNow`);
   * now: the server's epoch ms (the match client's clock). */
  constructor(strings, now, doc = globalThis.document) {
    this.S = strings;
    this.now = now;
    this.doc = doc;
    this.timer = null;
  }

  /** The page's room strings (#room-strings), for a board view built before the room. */
  static fromPage(now, doc = globalThis.document) {
    const el = doc.getElementById("room-strings");
    return new AwayMarks(el ? JSON.parse(el.textContent) : {}, now, doc);
  }

  /** The elements to put in seat `index`'s element: none while the seat is here; the mark
   * (`data-away-mark`), and the countdown (`data-away-countdown`) when one runs. */
  marks(match, index) {
    const state = awayState(match, index);
    if (!state) return [];
    const mark = this.doc.createElement("span");
    mark.className = "away-mark";
    mark.dataset.awayMark = index;
    mark.textContent = cap(this.S.away ?? "");
    if (state.at === null) return [mark];
    const countdown = this.doc.createElement("span");
    countdown.className = "away-countdown";
    countdown.dataset.awayCountdown = index;
    countdown.dataset.awayAt = state.at;
    countdown.dataset.awayOut = state.out ? "1" : "";
    countdown.textContent = countdownText(this.S, state, this.now());
    this.start();
    return [mark, countdown];
  }

  /** Every countdown on the page, written again for the clock's time now; the tick stops
   * when none is left (the next render with one starts it again). */
  tick() {
    const now = this.now();
    const shown = [...this.doc.querySelectorAll("[data-away-countdown]")];
    for (const el of shown) {
      const text = countdownText(this.S, { at: Number(el.dataset.awayAt), out: el.dataset.awayOut === "1" }, now);
      if (el.textContent !== text) el.textContent = text;
    }
    if (!shown.length) this.stop();
  }

  start() {
    if (this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
