// The Bozu controller: holds what the server last said (view, match), decides whether this
// browser may draw, sends the draw, and hands each frame to the views. Drawing is the
// only move, so the draw buttons are never `disabled` (a disabled button drops the
// keyboard focus to <body>): between your turns they are aria-disabled and do nothing,
// and the focus stays where it was. When your turn comes back and the focus was lost,
// it goes to the panel's draw button.

import { GameReport, modeLabel } from "../game-report.js";
import { seatName, yourSeats } from "../seats.js";
import * as telemetry from "../telemetry.js";
import { motionsFor, soundFor } from "./motion.js";
import { renderPanel } from "./panel.js";
import { renderResult } from "./result-view.js";

const drawButtons = () => [...document.querySelectorAll("[data-draw], [data-pile-button]")];

export class BozuController {
  constructor({ config, strings, table, sound, events }) {
    this.config = config;
    this.S = strings;
    this.table = table;
    this.sound = sound;
    this.events = events; // event-log.js: the short log and the live region
    this.view = null;
    this.match = null;
    this.report = new GameReport({ game: "bozu", config, send: telemetry });
    this.sent = false; // a draw is on its way: one per turn
    this.client = null;
    this.room = null;
  }

  name(seat) { return seatName(this.S.colours, this.match, seat); }
  mine() { return yourSeats(this.match); }

  canDraw() {
    const { view, match } = this;
    return Boolean(!this.sent && view && match && match.status === "playing" && !view.over &&
      view.to_act !== null && this.mine().includes(view.to_act));
  }

  draw() {
    if (!this.canDraw()) return;
    this.sent = true;
    this.renderButtons();
    this.client.act({ type: "draw" }, { seat: this.view.to_act });
  }

  renderButtons() {
    const enabled = this.canDraw();
    for (const b of drawButtons()) b.setAttribute("aria-disabled", String(!enabled));
    document.body.classList.toggle("my-turn", enabled);
    const lost = !document.activeElement || document.activeElement === document.body;
    if (enabled && lost) document.querySelector("[data-panel-draw]")?.focus({ preventScroll: true });
  }

  render() {
    renderPanel(this.S, this);
    this.renderButtons();
    this.table.render(this.view, this.match);
  }

  onState(frame) {
    const fresh = frame.reset ? [] : frame.events.filter((e) => e.events.length);
    this.view = frame.view;
    this.match = frame.match;
    this.sent = false;
    document.querySelector("[data-mode-label]").textContent = modeLabel(this.S.modes, this.match.mode);
    this.report.seen(this.match, this.mine().length > 0);
    this.render();
    const motions = motionsFor(fresh);
    this.table.play(motions);
    this.events.add(fresh);
    const firstResult = renderResult(this.S, this);
    const noise = soundFor(motions, firstResult ? this.view.result : null, this.mine());
    if (noise) this.sound.play(noise);
    if (firstResult) this.end();
    this.room.update(this.match);
  }

  end() {
    const result = this.view.result;
    const outcome = result.draw ? "draw" : result.winners.some((s) => this.mine().includes(s)) ? "win" : "loss";
    this.report.end(this.match, outcome, this.mine().length > 0, this.view.draws);
  }

  onError(error) {
    this.events.say(error.message);
    this.sent = false;
    if (error.view) { this.view = error.view; this.render(); }
  }
}
