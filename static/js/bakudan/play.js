// Bakudan Mekuri play screen: the entry module. It builds the controller (state, turns,
// the blind screen) and its views: board-view.js (deck, danger, seats, info panel),
// panel.js and keyboard.js (buttons and keys), blind.js (pass the device), the shared event-log.js,
// result-view.js (the end), and wires them to the match WebSocket. Every mode goes
// through the same socket; the server sends each viewer only its own view.

import { AwayMarks } from "../away.js";
import { EventLog } from "../event-log.js";
import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import { Blind } from "./blind.js";
import { BoardView } from "./board-view.js";
import { BakudanController } from "./controller.js";
import { bindKeys } from "./keyboard.js";
import { Panel } from "./panel.js";
import { ResultView } from "./result-view.js";

const $ = (sel) => document.querySelector(sel);
const config = JSON.parse(document.getElementById("match-config").textContent);
const S = JSON.parse(document.getElementById("bakudan-strings").textContent);
const lang = document.documentElement.lang || "ja";

const game = new BakudanController({ config, strings: S });
const client = new MatchClient(config, {
  onState: (frame) => game.onState(frame),
  onRoom: (frame) => game.onRoom(frame),
  onError: (error) => game.onError(error),
  onConnection: (up) => game.ui.room.connection(up),
});
game.client = client;
const panel = new Panel($("[data-panel]"), S, {
  act: (action) => game.act(action),
  seatName: (seat) => game.seatName(seat),
  handCount: (seat) => game.view?.seats?.[seat]?.hand_count ?? 0,
});
game.ui = {
  table: new BoardView(document.body, S, lang, AwayMarks.fromPage(() => client.serverNow())),
  events: new EventLog($("[data-log]"), $("[data-announcer]")),
  panel,
  blind: new Blind($("[data-blind]"), $("[data-board]"), S, (seat) => client.reveal(seat)),
  result: new ResultView($("[data-result]"), S, {
    seatName: (seat) => game.seatName(seat),
    isCpu: (seat) => game.isCpu(seat),
  }),
  room: new Room(client, config),
};
bindKeys(panel);
client.connect();
