// Seats as the room info describes them: each seat's colour comes from the server
// (match.seats[i].colour), so a screen works for any table of 2–5 seats. `names` maps a
// colour to its name in the page's language (the template's "colours" strings).

/** The colour of a seat ("red", "blue", …), or null when the room is not known yet. */
export const seatColour = (match, seat) => match?.seats?.[seat]?.colour ?? null;

/** The seat's name: its signed-in player's handle, else its colour's name, or its number
 * when the colour is unknown. */
export function seatName(names, match, seat) {
  const handle = match?.seats?.[seat]?.handle;
  if (handle) return handle;
  const colour = seatColour(match, seat);
  return (colour && names?.[colour]) || String(seat);
}

/**
 * A seat as a player reads it on every play screen: "Red (you)", "Blue (CPU Easy)".
 * `S` holds the page's strings: colours, you, cpu, levels ({key: label}).
 */
export function seatLabel(S, match, seat, { hotseat = match?.mode === "hotseat" } = {}) {
  const info = match?.seats?.[seat];
  const name = seatName(S.colours, match, seat);
  let label = info?.handle ? name : name.charAt(0).toUpperCase() + name.slice(1);
  if (info?.yours && !hotseat) label += ` (${S.you})`;
  else if (info?.kind === "cpu") label += ` (${cpuLabel(S, info)})`;
  return label;
}

/** "CPU Easy": the CPU and its level's name, as every play screen writes it. */
export const cpuLabel = (S, info) => [S.cpu, S.levels?.[info?.cpu_level]].filter(Boolean).join(" ");

/** The seats this browser plays. */
export const yourSeats = (match) => (match ? match.seats.filter((s) => s.yours).map((s) => s.index) : []);
