// Sides of the sided modes: competitive (a side is a seat's) and genpei (源平戦: a side is
// a team's, shared by its seats; view.teams gives each seat's team). Pure (Node-tested).

/** Whether a mode is played on two sides of three rows. */
export const isSided = (mode) => mode === "competitive" || mode === "genpei";

/** The side a seat plays for (a spectator, null: the first side, shown at the bottom). */
export const sideOfSeat = (view, seat) => (seat === null || seat === undefined ? 0 : view.teams ? view.teams[seat] : seat);

/** The seats of a side. */
export const seatsOfSide = (view, side) => (view.teams
  ? view.teams.flatMap((team, seat) => (team === side ? [seat] : []))
  : [side]);

/** The seat that chooses the cards a side sends (genpei: `by`; competitive: the sender). */
export const sendChooser = (send) => (send ? send.by ?? send.from : null);

/** Cards on a side. */
export const sideCount = (rows) => rows.reduce((n, row) => n + row.length, 0);

/** Half a row, rounded up: a phone wraps your team's long genpei rows in two lines. */
export const halfRow = (perRow) => Math.max(1, Math.ceil(perRow / 2));
