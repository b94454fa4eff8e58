// Seats for the table: colour and kind from the room info (match.seats, through the
// platform's seats.js), counts and state from the view. Pure, tested with node --test.

import { seatColour } from "../seats.js";

/**
 * view: a seat's or the spectator's view (or null); match: the frame's `match`.
 * colourName(colour) gives the colour's name in the page's language.
 */
export function seatRows(view, match, colourName) {
  const room = match?.seats ?? [];
  const count = view?.seats?.length ?? room.length;
  const rows = [];
  for (let index = 0; index < count; index += 1) {
    const info = room.find((s) => s.index === index) ?? {};
    const state = view?.seats?.[index] ?? {};
    const colour = seatColour(match, index) ?? "grey";
    rows.push({
      index,
      colour,
      name: colourName(colour),
      cpu: info.kind === "cpu",
      cpuLevel: info.cpu_level ?? null,
      yours: Boolean(info.yours),
      alive: state.alive !== false,
      handCount: state.hand_count ?? null,
      shield: Boolean(state.shield),
      place: state.place ?? null,
      toAct: Boolean(view && !view.over && view.to_act === index),
      owed: view && !view.over && view.to_act === index ? view.owed ?? 0 : 0,
    });
  }
  return rows;
}

/** The seat a handoff frame asks for, or null. */
export function handoffSeat(frame) {
  const seat = frame?.handoff?.seat;
  return Number.isInteger(seat) ? seat : null;
}
