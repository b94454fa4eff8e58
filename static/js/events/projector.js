// The projector view: a spectator of one board, in big type: both handles and the line
// being read (the kana released so far). Nothing here is more than a spectator receives.
import { MatchClient } from "../match-client.js";

const config = JSON.parse(document.getElementById("match-config").textContent);
const reading = document.getElementById("reading");

function draw(frame) {
  const seats = frame.match?.seats || [];
  seats.slice(0, 2).forEach((seat, i) => {
    if (seat?.handle) document.getElementById(`seat-${i}`).textContent = seat.handle;
  });
  const view = frame.view || {};
  if (frame.match?.status === "finished") {
    reading.textContent = reading.dataset.over;
    return;
  }
  const r = view.reading;
  reading.textContent = r && r.kana?.length ? r.kana.map((k) => k[0]).join("") : reading.dataset.waiting;
}

new MatchClient(config, { onState: draw }).connect();
