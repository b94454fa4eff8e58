// The lobby's lines, as text, from a board frame (pure: no DOM, tested with node --test).

/** Fill "{n}"-style placeholders. */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

/** One open seek as a line: game, mode, players, pace, rated or casual, how many sit at a
 * table so far, handle and rating. */
export function seekText(seek, names, strings) {
  const parts = [names.games[seek.game] || seek.game];
  if (seek.mode) parts.push(names.modes[seek.mode] || seek.mode);
  if (seek.players && seek.mode !== "competitive") parts.push(fill(strings.players, { n: seek.players }));
  if (seek.pace) parts.push(names.paces[seek.pace] || seek.pace);
  parts.push(seek.rated ? strings.rated : strings.casual);
  if (seek.seats > 2 && seek.seated) parts.push(fill(strings.seated, { n: seek.seated, seats: seek.seats }));
  const who = seek.handle ? `${seek.handle}${seek.rating ? ` (${seek.rating})` : ""}` : strings.guest;
  return `${parts.join(" · ")} — ${who}`;
}

/** A game to watch: its game and its players with their ratings. */
export function watchText(game, names, strings) {
  const people = game.players.map((p) => (p.rating ? `${p.handle} (${p.rating})` : p.handle));
  return `${names.games[game.game] || game.game}: ${people.join(" – ") || strings.guest}`;
}

/** A pool's queue: how many wait (empty when nobody does). */
export function poolText(line, strings) {
  return line && line.waiting ? fill(strings.waiting, { n: line.waiting }) : "";
}
