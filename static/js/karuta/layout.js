// Where cards lie and how a torifuda is printed. Pure (Node-tested).

/** Printed torifuda: five columns of three kana, read top to bottom, right to left. */
export function torifudaColumns(tori) {
  const flat = tori.replace(/ /g, "");
  const columns = [];
  for (let i = 0; i < flat.length; i += 3) columns.push(flat.slice(i, i + 3));
  if (columns.length > 5) columns[4] += columns.splice(5).join("");
  return columns;
}

/**
 * The rows of a side in screen order. The opponent's side is seen from across the table:
 * their lower row farthest away, each row reversed (and every card upside down).
 */
export function sideRows(rows, opponent) {
  const order = opponent ? [2, 1, 0] : [0, 1, 2];
  return order.map((r) => ({ row: r, cards: opponent ? rows[r].slice().reverse() : rows[r].slice() }));
}

/** Columns of the chirashi field for a pool of n cards. */
export const scatterColumns = (n) => Math.max(1, Math.ceil(Math.sqrt(n)));

/** The longest row of any side: a phone scales the competitive board so that row fits. */
export const longestRow = (sides) => Math.max(1, ...(sides ?? []).flatMap((rows) => (rows ?? []).map((row) => row.length)));

/** Keyboard order follows the table: top to bottom (by column band), then left to right. */
export function scatterOrder(field, columns) {
  return field.slice().sort((a, b) => (Math.round(a[2] * columns) - Math.round(b[2] * columns)) || (a[1] - b[1]));
}

/** A card's place in percent, keeping every card (turned any way) inside the field. */
export const scatterPlace = (x, y) => ({ left: `${(7 + x * 86).toFixed(2)}%`, top: `${(9 + y * 82).toFixed(2)}%` });

/** Move a card within your rows (dRow or dCol); null when it cannot go that way. */
export function moved(rows, poem, dRow, dCol) {
  const out = rows.map((row) => row.slice());
  const r = out.findIndex((row) => row.includes(poem));
  if (r < 0) return null;
  const c = out[r].indexOf(poem);
  if (dRow) {
    const to = r + dRow;
    if (to < 0 || to > 2) return null;
    out[r].splice(c, 1);
    out[to].splice(Math.min(c, out[to].length), 0, poem);
  } else {
    const to = c + dCol;
    if (to < 0 || to >= out[r].length) return null;
    out[r].splice(c, 1);
    out[r].splice(to, 0, poem);
  }
  return out;
}

/** Put a card down in a row, before another card (or at the row's end). */
export function dropped(rows, poem, targetRow, beforePoem) {
  const out = rows.map((row) => row.filter((c) => c !== poem));
  const at = beforePoem == null ? out[targetRow].length : out[targetRow].indexOf(beforePoem);
  out[targetRow].splice(at < 0 ? out[targetRow].length : at, 0, poem);
  return out;
}

/**
 * Otetsuki this seat has made so far in a reading, by the engine's rules
 * (games/karuta/engine.py): so the fault shows the moment the card is touched.
 *   competitive: one if any wrong touch lies on a side other than the read card's;
 *                a dead card (on no side): one per side touched
 *   chirashi:    one for any wrong card
 *   solo:        one per wrong card
 *   genpei:      as competitive (sides are the teams'); with `anyWrong` (the menu's
 *                "any wrong card") at least one for any wrong card
 */
export function faultsSoFar(mode, touches, poem, sideOf, anyWrong = false) {
  const wrong = touches.filter((card) => card !== poem);
  if (!wrong.length) return 0;
  if (mode === "solo") return wrong.length;
  if (mode === "chirashi") return 1;
  const owner = sideOf(poem);
  const sides = new Set(wrong.map(sideOf));
  const bySide = owner === null ? sides.size : [...sides].some((s) => s !== owner) ? 1 : 0;
  return anyWrong ? Math.max(1, bySide) : bySide;
}
