// Every game's menu (matches/_menu.html): keep the hot-seat button's player count in step
// with the players field, and report where a friend room was created from.

import * as telemetry from "./telemetry.js";

for (const form of document.querySelectorAll(".menu-form")) {
  const players = form.elements.players;
  const sync = () => {
    if (!players) return;
    for (const el of form.querySelectorAll("[data-player-count]")) el.textContent = players.value;
  };
  players?.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", (event) => {
    if (event.submitter?.value === "friend") telemetry.roomCreated("menu");
  });
}
