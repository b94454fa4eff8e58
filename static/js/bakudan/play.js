// Bakudan Mekuri play screen: the entry module. It connects the match client to the
// pieces: table.js (deck, danger, seats, info panel), panel.js (buttons and keyboard),
// blind.js (pass the device), result.js (the end). Every mode goes through the same
// WebSocket; the server sends each viewer only its own view.

import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import * as telemetry from "../telemetry.js";
import { seatColour, seatName as colourName } from "../seats.js";
import { cap } from "../text.js";
import { panelModel } from "./actions.js";
import { Blind } from "./blind.js";
import { outcome } from "./outcome.js";
import { Panel } from "./panel.js";
import { ResultScreen } from "./result.js";
import { EventLog } from "./log.js";
import { handoffSeat } from "./seats.js";
import { TableView } from "./table.js";
import { turnText } from "./turn.js";

const config = JSON.parse(document.getElementById("match-config").textContent);
const S = JSON.parse(document.getElementById("bakudan-strings").textContent);
const $ = (sel) => document.querySelector(sel);
const lang = document.documentElement.lang || "ja";

let view = null;
let viewSeat = null;
let match = null;
let startedAt = null;
let reported = null; // the telemetry result already sent
let moves = 0;

const mine = () => (match ? match.seats.filter((s) => s.yours).map((s) => s.index) : []);
const colourOf = (seat) => seatColour(match, seat) ?? "none";
const seatName = (seat) => cap(colourName(S.colours, match, seat));
const isCpu = (seat) => match?.seats.find((s) => s.index === seat)?.kind === "cpu";
const cpuLevel = () => match?.seats.find((s) => s.kind === "cpu")?.cpu_level ?? undefined;

const table = new TableView(document.body, S, lang);
const events = new EventLog($("[data-log]"), $("[data-announcer]"));
const panel = new Panel($("[data-panel]"), S, {
  act: (action) => {
    moves += 1;
    client.act(action, { seat: viewSeat });
  },
  seatName,
  handCount: (seat) => view?.seats?.[seat]?.hand_count ?? 0,
});
const blind = new Blind($("[data-blind]"), $("[data-board]"), S, (seat) => client.reveal(seat));
const result = new ResultScreen($("[data-result]"), S, {
  seatName,
  isCpu,
  onInviteAgain: () => {
    telemetry.roomCreated("result");
    client.room("invite");
    $("[data-room-invite]")?.scrollIntoView({ block: "center" });
    $("[data-invite-url]")?.focus();
  },
});



/** Blind screen: forget the previous player's view and wipe it from the page. */
function goBlind(seat) {
  view = null;
  viewSeat = null;
  table.clearPrivate();
  $("[data-hand]").replaceChildren();
  events.clear();
  $("[data-targets]").hidden = true;
  $("[data-place]").hidden = true;
  panel.model = null;
  blind.show(seat, seatName(seat), colourOf(seat));
}

function render() {
  const model = panelModel(view, viewSeat);
  const text = turnText({
    S, match, view, phase: model.phase, blindSeat: blind.shown ? blind.seat : null, seatName, isCpu,
  });
  $("[data-turn-banner]").textContent = text;
  $("[data-panel-turn]").textContent = text;
  document.body.classList.toggle("my-turn", model.phase === "act" || model.phase === "place");
  if (!blind.shown) {
    table.render(view, match, viewSeat);
    panel.render(model);
  }
  const ended = outcome(view, match, mine());
  result.render(ended, view, { mine: mine(), friend: match?.mode === "friend" });
  report(ended);
}

function report(ended) {
  if (!match) return;
  if (match.status === "playing" && startedAt === null) {
    startedAt = Date.now();
    telemetry.gameStart(match.mode, { game: "bakudan", cpuLevel: cpuLevel(), settings: config.telemetry_settings });
  }
  if (ended?.telemetry && reported === null) {
    reported = ended.telemetry;
    telemetry.gameEnd(match.mode, ended.telemetry, {
      game: "bakudan", cpuLevel: cpuLevel(), settings: config.telemetry_settings,
      moves, durationMs: startedAt ? Date.now() - startedAt : 0,
    });
  }
}

function onState(frame) {
  match = frame.match;
  document.body.dataset.seq = frame.seq; // tests wait on it: "the page has drawn frame N"
  $("[data-mode-label]").textContent = S.modes[match.mode] ? `(${S.modes[match.mode]})` : "";
  const handoff = handoffSeat(frame);
  if (handoff !== null && !frame.view) {
    goBlind(handoff);
    render();
    room.update(match);
    return;
  }
  const wasBlind = blind.shown;
  blind.hide();
  $("[data-panel-error]").textContent = "";
  view = frame.view;
  viewSeat = frame.view_seat ?? null;
  render();
  if (wasBlind) {
    // The player has just taken the device: start them on their first control, with a
    // log that holds nothing from the previous player's view.
    events.clear();
    panel.focusFirst();
  } else {
    events.add(frame.events, frame.reset);
  }
  room.update(match);
}

const client = new MatchClient(config, {
  onState,
  onRoom: (frame) => {
    match = frame.match;
    render();
    room.update(match);
  },
  onError: (error) => {
    $("[data-panel-error]").textContent = error.message;
    const handoff = handoffSeat(error);
    if (handoff !== null && !error.view) {
      // A shared device that is not this player's yet: back to the blind screen.
      goBlind(handoff);
      render();
      $("[data-blind-error]").textContent = error.message;
    } else if (blind.shown) {
      blind.show(blind.seat, seatName(blind.seat), colourOf(blind.seat));
      $("[data-blind-error]").textContent = error.message;
    } else {
      // The action was refused: redraw (from the current table when the error carries it),
      // which also lets the panel take presses again.
      if (error.view) {
        view = error.view;
        viewSeat = error.view_seat ?? viewSeat;
      }
      render();
    }
  },
  onConnection: (up) => room.connection(up),
});
const room = new Room(client, config);
client.connect();
