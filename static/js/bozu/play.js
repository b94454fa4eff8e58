// The Bozu Mekuri play screen (entry): a CSS 3D table with drawn card faces and motion,
// and a button panel that alone plays the whole game by keyboard. Every mode (CPU,
// hot-seat, friend) goes through the same match WebSocket; the server sends each seat
// only its own view. The jobs live in modules: controller (state and turn), board-view
// (piles, faces, motion), panel, result, keyboard; face and motion are pure (tests/js).

import { AwayMarks } from "../away.js";
import { EventLog } from "../event-log.js";
import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import { Sound } from "../sound.js";
import { Table3D } from "../table3d.js";
import * as telemetry from "../telemetry.js";
import { BozuController } from "./controller.js";
import { bindKeys } from "./keyboard.js";
import { BoardView } from "./board-view.js";

const json = (id) => JSON.parse(document.getElementById(id).textContent);
const config = json("match-config");
const S = json("bozu-strings");
const sound = new Sound();
sound.bind(document.querySelector("[data-sound-toggle]"));

const events = new EventLog(document.querySelector("[data-last-events]"), document.querySelector("[data-announcer]"), { keep: 6 });
const game = new BozuController({ config, strings: S, sound, table: null, events });
game.table = new BoardView(document.querySelector("[data-table3d]"), {
  cards: json("bozu-cards"), strings: S, names: (seat) => game.name(seat),
  away: AwayMarks.fromPage(() => client.serverNow()),
});
const client = new MatchClient(config, {
  onState: (frame) => game.onState(frame),
  onRoom: (frame) => { game.match = frame.match; game.render(); room.update(game.match); },
  onError: (error) => game.onError(error),
  onConnection: (up) => room.connection(up),
});
const room = new Room(client, config);
game.client = client;
game.room = room;

for (const button of document.querySelectorAll("[data-draw], [data-pile-button]")) {
  button.addEventListener("click", () => game.draw());
}
bindKeys(game);

// Read-only handle for tests and curious players: what this page was told, and the
// sounds it made.
window.bozuPlay = { view: () => game.view, sounds: () => sound.played.slice() };

telemetry.expect3d();
new Table3D(document.querySelector("[data-table3d]"), {
  onReady: () => { telemetry.view3dStarted(); telemetry.measureRenderSpeed(); },
  onFailure: () => telemetry.view3dFailure(),
}).start();
client.connect();
