// A game's start and end for the telemetry, the same in every game: once per match in a
// tab (a reload is the same game, once.js) and only from a player's page (a spectator
// neither starts, wins nor loses). The caller says what happened; this decides whether
// it is reported. Pure apart from the injected send functions and storage.

import { firstTime } from "./once.js";

/** The level of the match's CPU seats, if it has any (one level per match). */
export function cpuLevel(match) {
  return match?.seats?.find((s) => s.kind === "cpu")?.cpu_level ?? undefined;
}

/** "(vs CPU)" and the like, next to the game's title; "" for an unknown mode. */
export function modeLabel(modes, mode) {
  return modes?.[mode] ? `(${modes[mode]})` : "";
}

export class GameReport {
  /**
   * game: "bozu" | "karuta" | "bakudan"; config: the page's match config (match id,
   * telemetry_settings); send: { gameStart, gameEnd } (telemetry.js); storage: the tab's
   * sessionStorage; now: a clock in ms.
   */
  constructor({ game, config, send, storage = globalThis.sessionStorage, now = () => Date.now() }) {
    Object.assign(this, { game, config, send, storage, now });
    this.startedAt = null;
    this.ended = false;
  }

  fields(match) {
    return { game: this.game, cpuLevel: cpuLevel(match), settings: this.config.telemetry_settings };
  }

  /** Call with every frame: reports the start the first time the match is seen playing. */
  seen(match, isPlayer) {
    if (!match || match.status !== "playing" || this.startedAt !== null) return;
    this.startedAt = this.now();
    if (isPlayer && firstTime("start", this.config.match, this.storage)) this.send.gameStart(match.mode, this.fields(match));
  }

  /** The game is over for this page: outcome is a telemetry result ("win", "loss", …). */
  end(match, outcome, isPlayer, moves) {
    if (this.ended) return;
    this.ended = true;
    if (!isPlayer || !firstTime("end", this.config.match, this.storage)) return;
    this.send.gameEnd(match.mode, outcome, {
      ...this.fields(match), moves, durationMs: this.startedAt === null ? 0 : this.now() - this.startedAt,
    });
  }
}
