// Seat groups (teams: karuta's genpei) as a friend room's creator arranges them before the
// start: the room info's `groups` (each group's seats) and the `swap` room frame, which
// exchanges two seats of different groups. Pure (Node-tested).

/** The group a seat is in, or -1. */
export const groupOf = (groups, seat) => (groups ?? []).findIndex((seats) => seats.includes(seat));

/** The seats `picked` may be exchanged with: every seat of the other groups, in order. */
export function swapTargets(groups, picked) {
  const own = groupOf(groups, picked);
  if (own < 0) return [];
  return groups.flatMap((seats, g) => (g === own ? [] : seats));
}
