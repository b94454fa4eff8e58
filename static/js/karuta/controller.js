// The karuta controller: what the server last said (view, match), the reader's clock, the
// actions this seat sends (touch, pass, ready, arrange, send) and the frame queue.
//
// The reading runs on the server's clock (client.serverNow(): the ping/pong estimate). The
// server releases the reading as it goes: each kana a small lead before its time, the poem
// once its deciding kana is, other seats' touches once their time is reached (the same
// frame's seq, a higher `part`). The page shows each thing when its clock reaches it and
// knows nothing in advance: it passes once it sees another seat's touch on the read card
// or the reading's close. A frame that settles the reading before the reader's clock got
// there (you sat out) is held until that time comes (clock.holdMs).

import { GameReport, modeLabel } from "../game-report.js";
import { cpuLabel, seatColour, seatName } from "../seats.js";
import * as telemetry from "../telemetry.js";
import { cap, fmt } from "../text.js";
import { ARRANGE_UNTIL, holdMs, nextChange, readingBase, startReading, syncInterval, timeOn } from "./clock.js";
import { dropped, faultsSoFar, moved } from "./layout.js";
import { ReadyGate } from "./ready-gate.js";
import { isSided, sendChooser, sideCount, sideOfSeat } from "./sides.js";
import { mayRest } from "./voice-schedule.js";

const READING_WAIT_MS = 250;
const IDLE_WAIT_MS = 1000;

export class KarutaController {
  constructor({ config, cards, strings, now = null }) {
    this.config = config;
    this.CARDS = cards;
    this.S = strings;
    this.clock = now; // the server's time (epoch ms); by default the match client's estimate
    this.view = null;
    this.match = null;
    this.cur = null; // the reading on the reader's clock (clock.startReading)
    this.frames = [];
    this.holdTimer = null;
    this.memoriseEnd = null;
    this.readyGate = new ReadyGate(); // "ready" asked for (skip, or the time ran out); sent once the page can play
    this.sendPending = false;
    this.picked = null;
    this.report = new GameReport({ game: "karuta", config, send: telemetry });
    this.appliedSeq = null;
    this.client = null;
    this.ui = null; // {board, panel, result, speech, voice, sound}: set by the entry
  }

  // --- reading the state ---------------------------------------------------------------

  you() { return this.view ? this.view.you : null; }
  name(seat) { return cap(seatName(this.S.colours, this.match, seat)); }
  label(seat) {
    const info = this.match?.seats[seat];
    if (seat === this.you()) return `${this.name(seat)} (${this.S.you})`;
    return info?.kind === "cpu" ? `${this.name(seat)} (${cpuLabel(this.S, info)})` : this.name(seat);
  }
  colour(seat) { return seatColour(this.match, seat) ?? "grey"; }
  /** The seat that resigned (stopped) this match, or null while it goes on or ended by its rules. */
  resigned() {
    const outcome = this.match?.status === "finished" ? this.match.outcome : null;
    return outcome?.type === "resigned" && Number.isInteger(outcome.seat) ? outcome.seat : null;
  }
  /** Ended by its rules or resigned: nothing is left to read, show or pass. */
  over() { return Boolean(this.view?.result) || this.resigned() !== null; }
  /** Memorisation and readings need watching: the screen stays on until the game is over. */
  watching() { return Boolean(this.match?.status === "playing" && this.view && !this.view.result && this.you() !== null); }
  now() { return this.clock ? this.clock() : this.client.serverNow(); }
  tNow() { return timeOn(this.cur, this.now()); }
  /** The reading's time as shown and heard: later than tNow only when the sound output is
   * too slow to hide (voice.js), never for touches, which keep tNow. */
  tShown() { return this.tNow() - (this.ui?.voice?.delayFor(this.cur) ?? 0); }
  firstPhrase(poem) { return this.CARDS[poem].tori.split(" ")[0]; }
  cardLabel(poem) { return `「${this.firstPhrase(poem)}…」`; }
  markKimariji() { return this.view.mode === "solo" || this.view.settings.show_kimariji; }

  active() {
    const r = this.view?.reading;
    return Boolean(r && this.view.phase === "reading" && r.active.includes(this.you()) && !r.done.includes(this.you()));
  }

  myTouches() {
    const r = this.view?.reading;
    return r ? r.touches.filter(([s]) => s === this.you()) : [];
  }

  /** The side this page plays for (genpei: its team's), the first for a spectator. */
  mySide() { return sideOfSeat(this.view, this.you()); }
  ownRows() { return this.view.sides[this.mySide()]; }
  /** Whether this seat chooses the cards sent now (genpei: the taker, for its team). */
  sending() { return this.view?.phase === "send" && sendChooser(this.view.send) === this.you() && this.you() !== null; }

  count(seat) {
    if (isSided(this.view.mode)) return sideCount(this.view.sides[sideOfSeat(this.view, seat)]);
    return this.view.taken[seat].length;
  }

  sideOf(poem) {
    const sides = this.view.sides ?? [];
    const seat = sides.findIndex((rows) => rows.some((row) => row.includes(poem)));
    return seat < 0 ? null : seat;
  }

  /** Otetsuki shown for a seat: the tally, plus this seat's own faults in the running reading. */
  faults(seat) {
    const base = this.view.tally[seat].otetsuki;
    const r = this.view.reading;
    if (seat !== this.you() || !r || r.poem === undefined || r.poem === null) return base;
    const mine = this.myTouches().map(([, card]) => card);
    const anyWrong = this.view.settings.otetsuki_rule === "any" && this.view.mode === "genpei";
    return base + faultsSoFar(this.view.mode, mine, r.poem, (p) => this.sideOf(p), anyWrong);
  }

  // --- actions -------------------------------------------------------------------------

  // Seats act at once in karuta, so actions are not tied to the last sequence number seen.
  // What an action changes on the page (the prompt, the skip button) is drawn in the next
  // frame: the clock's duties are asked for then (ui.clock: frame-loop.js).
  act(action) {
    const id = this.client.act(action, { checkSeq: false });
    this.ui.clock?.soon();
    return id;
  }

  take(poem) {
    const { view, S } = this;
    if (!view || this.match?.status !== "playing") return;
    if (view.phase === "send") {
      if (!this.sendPending && this.sending() && this.ownRows().some((row) => row.includes(poem))) {
        this.sendPending = true; // one send per frame: the next frame says how many are left
        this.act({ type: "send", card: poem });
        this.ui.panel.announce(fmt(S.youSend, { card: this.cardLabel(poem) }));
      } else if (this.sending()) {
        this.ui.panel.announce(fmt(view.mode === "genpei" ? S.chooseSendTeam : S.chooseSend, { n: view.send.remaining }));
      }
      return;
    }
    if (view.phase === "memorise") { this.ui.panel.announce(S.notYet); return; }
    if (!this.active()) {
      this.ui.panel.announce(view.phase === "reading" && view.reading.sitting_out.includes(this.you()) ? S.sittingOut : S.notNow);
      return;
    }
    const t = this.tNow();
    if (t < 0) { this.ui.panel.announce(S.notYet); return; }
    const r = view.reading;
    if (this.myTouches().some(([, card]) => card === poem)) return;
    const close = r.close ?? Infinity; // unknown until the poem is: nothing can be late yet
    const last = this.myTouches().reduce((m, [, , tt]) => Math.max(m, tt), 0);
    const at = Math.max(last, Math.min(t, close));
    if (t > close) { this.maybePass(t); return; }
    const before = this.faults(this.you());
    const id = this.act({ type: "touch", card: poem, t: at, reading: r.number });
    r.touches.push([this.you(), poem, at]);
    (this.cur.mine ??= []).push(Object.assign([this.you(), poem, at], { id }));
    if ((r.poem !== null && poem === r.poem) || view.mode === "chirashi") r.done.push(this.you());
    this.ui.board.touched(poem, this.you());
    // A fault shows at once: the card and the counter flash together.
    if (this.faults(this.you()) > before) {
      this.ui.board.fault(poem);
      this.ui.panel.renderCounts(this.you());
      this.ui.sound.play("fault");
    }
  }

  /** Asked for (panel.js greys the button): the gate holds it until the page can play. */
  get readySent() { return this.readyGate.wanted; }

  ready() {
    if (this.readyGate.wanted || this.view?.phase !== "memorise" || this.resigned() !== null || !this.view.to_act.includes(this.you())) return;
    this.readyGate.want();
    this.flushReady();
  }

  /** "ready" goes once this page can play the first reading (or after the gate's cap). */
  flushReady() {
    const { view } = this;
    if (view?.phase !== "memorise" || !view.to_act.includes(this.you()) || this.resigned() !== null) return;
    if (this.readyGate.due(this.ui.voice?.canPlay(view) ?? true)) this.act({ type: "ready" });
  }

  // Rearranging your side: allowed while memorising, or before the upper verse starts and
  // before you have touched.
  canArrange() {
    const { view } = this;
    if (!view || !isSided(view.mode) || this.you() === null) return false;
    if (view.phase === "memorise") return view.to_act.includes(this.you());
    return this.active() && this.tNow() < ARRANGE_UNTIL && this.myTouches().length === 0;
  }

  arrange(rows) {
    if (!this.canArrange()) { this.ui.panel.announce(this.S.noArrange); return false; }
    const action = { type: "arrange", rows };
    if (this.view.phase === "reading") action.t = Math.min(-1, this.tNow());
    this.view.sides[this.mySide()] = rows;
    this.act(action);
    this.ui.board.render();
    return true;
  }

  moveCard(poem, dRow, dCol) {
    const rows = moved(this.ownRows(), poem, dRow, dCol);
    if (rows && this.arrange(rows)) { this.ui.board.cardEl(poem)?.focus(); this.ui.panel.announce(this.S.moved); }
  }

  dropOn(poem, targetRow, beforePoem) {
    this.arrange(dropped(this.ownRows(), poem, targetRow, beforePoem));
  }

  // "pass" once nothing more can happen: the clock passed the close, or another seat's
  // touch on the read card (touches after a take never count).
  maybePass(t) {
    const { cur } = this;
    if (!this.active() || cur.passed || cur.number !== this.view.reading.number) return;
    const r = this.view.reading;
    if (r.poem === null) return; // not decided yet: nobody can have taken it
    const taken = r.touches.filter(([s, card]) => s !== this.you() && card === r.poem).map(([, , tt]) => tt);
    const first = taken.length ? Math.min(...taken) : Infinity;
    if (t > (r.close ?? Infinity) || t > first) {
      cur.passed = true;
      this.act({ type: "pass", reading: r.number }); // never counted in the next reading
    }
  }

  // --- the clock's duties --------------------------------------------------------------

  tick() {
    const { ui } = this;
    if (this.cur) {
      const t = this.tNow();
      ui.panel.renderReading();
      ui.voice?.follow(this.cur, this.tShown(), this.view);
      if (!ui.voice?.plays(this.cur)) ui.speech.follow(this.cur, t);
      ui.board.showTouches(t);
      this.maybePass(t);
    } else ui.voice?.follow(null, -Infinity, this.view);
    ui.voice?.allowRest(mayRest(this.view, this.you(), { readyWanted: this.readyGate.wanted, ended: this.resigned() !== null }));
    this.flushReady();
    ui.panel.renderMemorise();
    ui.panel.renderPrompt();
    ui.clock?.wake(); // what this tick saw (a new frame's times) sets the next wait
  }

  /** How long (ms) until anything the clock's duties show or do may change: the reading's
   * next due time on either of its clocks (shown, and touched), the next second of the
   * memorisation countdown; at most READING_WAIT_MS while a reading or a "ready" is under
   * way (the clock estimate moves, a clip decodes), IDLE_WAIT_MS otherwise. */
  nextMs() {
    let ms = this.cur || (this.readyGate.wanted && !this.readyGate.sent) ? READING_WAIT_MS : IDLE_WAIT_MS;
    if (this.cur) {
      const t = this.tNow();
      const shown = this.tShown();
      ms = Math.min(ms, nextChange(this.cur.r, t) - t, nextChange(this.cur.r, shown) - shown);
    }
    if (this.memoriseEnd !== null && this.view?.phase === "memorise") {
      const left = this.memoriseEnd - this.now();
      if (left > 0) ms = Math.min(ms, (left % 1000 || 1000) + 1); // the shown second changes
    }
    return ms;
  }

  // --- frames --------------------------------------------------------------------------

  onState(frame) {
    this.frames.push(frame);
    this.pump();
  }

  pump() {
    clearTimeout(this.holdTimer);
    while (this.frames.length) {
      const wait = holdMs(this.frames[0], this.cur, this.tNow());
      if (wait > 0) { this.holdTimer = setTimeout(() => this.pump(), wait + 5); return; }
      this.apply(this.frames.shift());
    }
  }

  /** The touches this page sent in the current reading, kept in every newer view of it until
   * the server's view has them (a part frame may be built before a touch arrived there). */
  keepOwn(r) {
    const cur = this.cur;
    if (!r || !cur || cur.number !== r.number || !cur.mine) return;
    for (const touch of cur.mine) {
      const [seat, card] = touch;
      if (!r.touches.some(([s, c]) => s === seat && c === card)) r.touches.push(touch.slice());
      if ((card === r.poem || this.view.mode === "chirashi") && !r.done.includes(seat)) r.done.push(seat);
    }
  }

  apply(frame) {
    if (this.view && !frame.reset && frame.seq === this.appliedSeq && (frame.part ?? 0) > 0) {
      this.grow(frame);
      return;
    }
    this.appliedSeq = frame.seq;
    if (!frame.view) {
      // A friend room still waiting for its players: no game yet, only the room.
      this.match = frame.match;
      this.ui.room?.update(this.match);
      this.tick();
      return;
    }
    const before = this.view;
    const { ui } = this;
    this.view = frame.view;
    this.match = frame.match;
    this.sendPending = false;
    const view = this.view;
    document.querySelector("[data-mode-label]").textContent = modeLabel(this.S.modes, view.mode);
    this.report.seen(this.match, this.you() !== null);
    if (view.phase !== "memorise") { this.memoriseEnd = null; this.readyGate.reset(); }
    // A resigned match reads no further: its last view stays, without a reading.
    const r = this.resigned() === null ? view.reading : null;
    if (r && (!this.cur || this.cur.number !== r.number)) {
      ui.speech.cancel();
      if (this.lastReading !== undefined && this.lastReading !== r.number) ui.panel.newReading();
      this.lastReading = r.number;
      this.cur = startReading(r, readingBase(frame.at, r));
    }
    else if (r && this.cur) { this.cur.r = r; this.cur.base = readingBase(frame.at, r); this.keepOwn(r); }
    if (!r) { if (this.cur) ui.speech.cancel(); this.cur = null; }
    ui.awake?.want(this.watching());
    this.client?.syncEvery(this.resigned() === null ? syncInterval(view) : null);
    // What happened, in words (the server's texts, in this page's language).
    const fresh = frame.reset ? [] : frame.events;
    const said = [];
    const faults = [];
    for (const entry of fresh) {
      const texts = entry.texts ?? [];
      for (const text of texts) ui.panel.log(text, false);
      said.push(...texts);
      const result = entry.events.find((e) => e.type === "result");
      if (result) {
        // The texts end with "reading N begins" when the next reading started in the same step.
        const next = entry.events.some((e) => e.type === "reading") ? 1 : 0;
        ui.panel.showResult(result, texts.slice(0, texts.length - next));
        if (view.mode === "solo") ui.panel.addSoloRow(result);
        faults.push(...this.faultSeats(result, before));
        ui.sound.play(result.taker === this.you() || (view.mode === "solo" && result.t !== null) ? "take" : "flip");
      }
    }
    if (said.length) ui.panel.announce(said.join(" "));
    if (frame.reset && view.last) ui.panel.showResult(view.last, []);
    if (!before || before.mode !== view.mode) ui.speech.set(view.settings.speech);
    ui.panel.renderStatus();
    ui.board.render();
    ui.panel.renderCounts();
    for (const seat of faults) ui.panel.flashFault(seat);
    ui.panel.renderSoloTable();
    const first = ui.result.render();
    if (first) this.end();
    if (this.over()) ui.panel.clearReading();
    ui.room?.update(this.match);
    this.tick();
  }

  /** A part of the same state: the reading grew (kana, the poem, touches). Nothing else
   * changed, so no events and no full redraw: the clock's duties show what is due. */
  grow(frame) {
    this.view = frame.view;
    const r = this.view.reading;
    if (r && this.cur?.number === r.number) {
      this.cur.r = r;
      this.cur.base = readingBase(frame.at, r);
      this.keepOwn(r);
    }
    this.ui.panel.renderCounts();
    this.tick();
  }

  /** Seats that made an otetsuki in a result (other seats': this seat's flashed at the touch). */
  faultSeats(result, before) {
    const counts = Array.isArray(result.otetsuki) ? result.otetsuki : [result.wrong?.length ?? 0];
    const mine = this.you();
    const shownAlready = before?.reading?.number === result.number;
    return counts.map((n, seat) => (n > 0 && !(seat === mine && shownAlready) ? seat : null)).filter((s) => s !== null);
  }

  end() {
    const stopped = this.resigned();
    const result = stopped === null ? this.view.result : null;
    const mine = result?.places[this.you()];
    const outcome = stopped !== null ? (stopped === this.you() ? "resign" : "win")
      : this.view.mode === "solo" ? "complete"
        : result.winner === null && result.winner_team == null && mine === 1 ? "draw" : mine === 1 ? "win" : "loss";
    this.report.end(this.match, outcome, this.you() !== null, this.view.read.length);
  }

  onError(error) {
    this.ui.panel.log(error.message);
    if (error.code === "impossible_touch") this.ui.panel.showRefusal(error.message);
    // A refused touch (e.g. too fast to be a reaction) is not ours to keep showing.
    if (this.cur?.mine && error.ref) this.cur.mine = this.cur.mine.filter((touch) => touch.id !== error.ref);
    if (error.view && !this.frames.length) {
      this.view = error.view;
      if (this.cur && this.view.reading?.number === this.cur.number) {
        this.cur.r = this.view.reading;
        if (Number.isFinite(error.at)) this.cur.base = readingBase(error.at, this.cur.r);
      }
      this.ui.board.render();
      this.ui.panel.renderCounts();
    }
  }
}
