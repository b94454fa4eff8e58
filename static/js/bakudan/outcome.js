// The end of a game as the result screen tells it. Pure, tested with node --test.
//
// In vs-CPU play the game is over for the person as soon as they are out: the screen
// then says so and names the CPU that survived (the fast-forward result) once the
// engine has finished the game; until then it says the CPUs are playing it out.

/**
 * view: the latest view; match: the frame's match; mine: the seats this page plays.
 * Returns null while the game is on for this page, else
 *   {final, winner, order: [{seat, place}], meOut, mode, telemetry}
 */
export function outcome(view, match, mine) {
  if (!view || !match) return null;
  const finished = Boolean(view.over) || match.status === "finished";
  const cpuGame = match.mode === "cpu";
  const me = cpuGame ? mine[0] : null;
  const meOut = cpuGame && me !== undefined && view.seats?.[me]?.alive === false;
  if (!finished && !meOut) return null;

  const order = placesOf(view);
  const winner = Number.isInteger(view.winner) ? view.winner : finished ? (order[0]?.seat ?? null) : null;
  let telemetry = null;
  if (finished) {
    if (match.mode === "hotseat") telemetry = "complete";
    else if (mine.length === 0) telemetry = null; // a spectator has no result
    else telemetry = mine.includes(winner) ? "win" : "loss";
  } else if (meOut) {
    telemetry = "loss";
  }
  return { final: finished, winner, order, meOut, mode: match.mode, telemetry };
}

/** Seats by final place (1 = winner); seats still in the game (no place yet) last. */
export function placesOf(view) {
  const seats = view.seats ?? [];
  const places = Array.isArray(view.places) ? view.places : seats.map((s) => s.place ?? null);
  return seats
    .map((_, seat) => ({ seat, place: places[seat] ?? null }))
    .sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
}

/** The menu link that starts the same deal: /<lang>/bakudan/?number=... (absolute). */
export function numberLink(menuUrl, number, origin) {
  const url = new URL(menuUrl, origin);
  url.searchParams.set("number", number);
  url.hash = "";
  return url.href;
}
