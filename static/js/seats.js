// Seats as the room info describes them: each seat's colour comes from the server
// (match.seats[i].colour), so a screen works for any table of 2–5 seats. `names` maps a
// colour to its name in the page's language (the template's "colours" strings).

/** The colour of a seat ("red", "blue", …), or null when the room is not known yet. */
export const seatColour = (match, seat) => match?.seats?.[seat]?.colour ?? null;

/** The seat's name: its colour's name, or its number when the colour is unknown. */
export function seatName(names, match, seat) {
  const colour = seatColour(match, seat);
  return (colour && names?.[colour]) || String(seat);
}
