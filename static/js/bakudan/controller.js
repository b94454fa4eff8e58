// The Bakudan controller: holds what the server last said (view, match, the viewing seat),
// turns each frame into the table, the panel, the log and the result, and covers a shared
// device with the blind screen between players. play.js builds it and wires the socket.

import { GameReport, modeLabel } from "../game-report.js";
import { seatColour, seatName as colourName } from "../seats.js";
import * as telemetry from "../telemetry.js";
import { cap } from "../text.js";
import { panelModel } from "./actions.js";
import { outcome } from "./outcome.js";
import { handoffSeat } from "./seats.js";
import { turnText } from "./turn.js";

const $ = (sel) => document.querySelector(sel);

export class BakudanController {
  constructor({ config, strings }) {
    this.config = config;
    this.S = strings;
    this.view = null;
    this.viewSeat = null;
    this.match = null;
    this.report = new GameReport({ game: "bakudan", config, send: telemetry });
    this.moves = 0;
    this.client = null;
    this.ui = null; // { table, events, panel, blind, result, room }
  }

  mine() { return this.match ? this.match.seats.filter((s) => s.yours).map((s) => s.index) : []; }
  colourOf(seat) { return seatColour(this.match, seat) ?? "none"; }
  seatName(seat) { return cap(colourName(this.S.colours, this.match, seat)); }
  isCpu(seat) { return this.match?.seats.find((s) => s.index === seat)?.kind === "cpu"; }

  act(action) {
    this.moves += 1;
    this.client.act(action, { seat: this.viewSeat });
  }

  /** Blind screen: forget the previous player's view and wipe it from the page. */
  goBlind(seat) {
    const { table, events, panel, blind } = this.ui;
    this.view = null;
    this.viewSeat = null;
    table.clearPrivate();
    $("[data-hand]").replaceChildren();
    events.clear();
    $("[data-targets]").hidden = true;
    $("[data-place]").hidden = true;
    panel.model = null;
    blind.show(seat, this.seatName(seat), this.colourOf(seat));
  }

  render() {
    const { table, panel, blind, result } = this.ui;
    const model = panelModel(this.view, this.viewSeat);
    const text = turnText({
      S: this.S, match: this.match, view: this.view, phase: model.phase,
      blindSeat: blind.shown ? blind.seat : null, seatName: (s) => this.seatName(s), isCpu: (s) => this.isCpu(s),
    });
    $("[data-turn-banner]").textContent = text;
    $("[data-panel-turn]").textContent = text;
    document.body.classList.toggle("my-turn", model.phase === "act" || model.phase === "place");
    if (!blind.shown) {
      table.render(this.view, this.match, this.viewSeat);
      panel.render(model);
    }
    const ended = outcome(this.view, this.match, this.mine());
    result.render(ended, this.view, { mine: this.mine(), friend: this.match?.mode === "friend" });
    // Reported once per match in a tab, and never by a spectator (game-report.js).
    const player = this.mine().length > 0;
    this.report.seen(this.match, player);
    if (ended?.telemetry) this.report.end(this.match, ended.telemetry, player, this.moves);
  }

  onState(frame) {
    const { blind, events, panel, room } = this.ui;
    this.match = frame.match;
    $("[data-mode-label]").textContent = modeLabel(this.S.modes, this.match.mode);
    const handoff = handoffSeat(frame);
    if (handoff !== null && !frame.view) {
      this.goBlind(handoff);
      this.render();
      room.update(this.match);
      return;
    }
    const wasBlind = blind.shown;
    blind.hide();
    $("[data-panel-error]").textContent = "";
    this.view = frame.view;
    this.viewSeat = frame.view_seat ?? null;
    this.render();
    if (wasBlind) {
      // The player has just taken the device: start them on their first control, with a
      // log that holds nothing from the previous player's view.
      events.clear();
      panel.focusFirst();
    } else {
      events.add(frame.events, frame.reset);
    }
    room.update(this.match);
  }

  onRoom(frame) {
    this.match = frame.match;
    this.render();
    this.ui.room.update(this.match);
  }

  onError(error) {
    const { blind } = this.ui;
    $("[data-panel-error]").textContent = error.message;
    const handoff = handoffSeat(error);
    if (handoff !== null && !error.view) {
      // A shared device that is not this player's yet: back to the blind screen.
      this.goBlind(handoff);
      this.render();
      $("[data-blind-error]").textContent = error.message;
    } else if (blind.shown) {
      blind.show(blind.seat, this.seatName(blind.seat), this.colourOf(blind.seat));
      $("[data-blind-error]").textContent = error.message;
    } else {
      // The action was refused: redraw (from the current table when the error carries it),
      // which also lets the panel take presses again.
      if (error.view) {
        this.view = error.view;
        this.viewSeat = error.view_seat ?? this.viewSeat;
      }
      this.render();
    }
  }
}
