// The result screen: places, the scores as a picture, play again / back to the menu, and
// a small celebration (falling petals, a chime when sound is on) when you win.

import { seatColour } from "../seats.js";
import { scoreBarsSvg } from "../score-bars.js";
import { cap, fmt } from "../text.js";
import { celebrate } from "../celebrate.js";
import { showRecordLink } from "../records/link.js";

const $ = (sel) => document.querySelector(sel);

export function outcome(result, mine) {
  if (result.draw && result.winners.some((s) => mine.includes(s))) return "draw";
  return result.winners.some((s) => mine.includes(s)) ? "win" : "loss";
}


/** Returns true the first time a result is shown (for telemetry and the sound). */
export function renderResult(S, game) {
  const { view, match } = game;
  const result = view && view.result;
  const box = $("[data-result]");
  if (!result) { box.hidden = true; return false; }
  const top = Math.max(...result.cards);
  const winners = result.winners.map((s) => cap(game.name(s)));
  $("[data-result-summary]").textContent = result.draw
    ? fmt(S.draw, { seats: winners.join(", "), n: top })
    : fmt(S.winner, { seat: winners[0], n: top });
  const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place);
  $("[data-result-places]").replaceChildren(...order.map(({ place, seat }) => {
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.dataset.place = place;
    li.textContent = fmt(S.place, { place, seat: cap(game.name(seat)), n: result.cards[seat] });
    return li;
  }));
  $("[data-result-chart]").innerHTML = scoreBarsSvg(order.map(({ place, seat }) => ({
    place, label: cap(game.name(seat)), value: result.cards[seat], colour: seatColour(match, seat),
  })), { title: S.scoresTitle });
  $("[data-invite-again]").hidden = !(match.mode === "friend" && game.mine().length);
  const mine = game.mine();
  const won = mine.length > 0 && match.mode !== "hotseat" && outcome(result, mine) === "win";
  box.classList.toggle("won", won);
  const first = box.hidden;
  box.hidden = false;
  showRecordLink(box);
  if (first) {
    box.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" }); // beside the table on a wide screen; below it on a phone
    if (won) celebrate(box);
  }
  return first;
}
