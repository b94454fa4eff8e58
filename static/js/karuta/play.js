// The karuta play screen (entry): competitive and chirashi (against CPUs or friends in a
// room) and solo practice, over the shared match WebSocket. The jobs live in modules, in
// the manner of lichess's ui/round: controller (state, actions, frames), clock (the
// reader's time base, on the server's clock: match-client.js with clock-sync.js),
// board-view, fit (a phone's board fills the screen), panel (reader and side panel),
// result-view, keyboard, voice (the recorded reading voice; speech is its fallback), stats
// (solo practice), frame-loop (the clock's duties, when something is due, until the game is
// over); clock, layout, typeahead, stats, voice-schedule and frame-loop are pure (tests/js),
// and fit's arithmetic.

import { MatchClient } from "../match-client.js";
import { Room } from "../room.js";
import { Sound } from "../sound.js";
import { ScreenAwake } from "../wake-lock.js";
import { BoardView } from "./board-view.js";
import { KarutaController } from "./controller.js";
import { bindFit } from "./fit.js";
import { runClock } from "./frame-loop.js";
import { bindBoard } from "./keyboard.js";
import { Panel } from "./panel.js";
import { ResultView } from "./result-view.js";
import { Speech } from "./speech.js";
import { Voice } from "./voice.js";
import { bindZoom } from "./zoom.js";

const json = (id) => JSON.parse(document.getElementById(id).textContent);
const config = json("match-config");
const game = new KarutaController({ config, cards: json("karuta-cards"), strings: json("karuta-strings") });
const sound = new Sound();
sound.bind(document.querySelector("[data-sound-toggle]"));
game.ui = {
  board: new BoardView(game),
  panel: new Panel(game),
  result: new ResultView(game),
  speech: new Speech(document.querySelector("[data-speech]"), document.querySelector("[data-no-voice]")),
  voice: new Voice({ root: document, strings: game.S, serverNow: () => game.now() }),
  sound,
  awake: new ScreenAwake(),
  room: null,
};

const client = new MatchClient(config, {
  onState: (frame) => game.onState(frame),
  onRoom: (frame) => { game.match = frame.match; game.ui.board.render(); game.ui.room.update(game.match); },
  onError: (error) => game.onError(error),
  onConnection: (up) => game.ui.room.connection(up),
});
game.client = client;
game.ui.room = new Room(client, config, { stoppable: true, groupLabel: (i) => game.S.teams[i] });
bindBoard(game);
bindZoom(document.querySelector("[data-board]"), document.querySelector("[data-card-zoom]"));
bindFit(document.body, document.querySelector("[data-board]"));
document.querySelector("[data-skip]").addEventListener("click", () => game.ready());

// Read-only handle for tests and curious players: what this page was told, nothing more.
window.karutaPlay = { view: () => game.view, clock: () => game.tNow(), offset: () => client.offset, sounds: () => sound.played.slice(), voice: () => game.ui.voice.report(), ticking: () => clock.running() };
const clock = runClock({ tick: () => game.tick(), over: () => game.over(), next: () => game.nextMs() });
game.ui.clock = clock;
// Back from a hidden tab (whose timers the browser slows): what fell due meanwhile, now.
document.addEventListener("visibilitychange", () => { if (!document.hidden) clock.soon(); });
client.connect();
