// What the projector draws of a karuta board, from a spectator's view (pure: no DOM).
// Competitive and genpei: the two sides as seen from the side of seat 0 (the other side
// across the line, its rows farthest first and reversed, upside down: the karuta board's
// own `sideRows`); chirashi: the field's cards where they lie. Only what the frame holds:
// a projector is a spectator and is sent nothing more.
import { longestRow, scatterColumns, scatterOrder, sideRows, torifudaColumns } from "../karuta/layout.js";

/** The board to draw, or null (not karuta, or no cards in the frame). */
export function projectorBoard(view) {
  if (!view || view.game !== "karuta") return null;
  if (Array.isArray(view.sides) && view.sides.length === 2) {
    return {
      kind: "sides",
      perRow: longestRow(view.sides), // the cards are sized so that this row fits the width
      sides: [1, 0].map((side) => ({
        side,
        upsideDown: side === 1,
        count: view.sides[side].reduce((n, row) => n + row.length, 0),
        rows: sideRows(view.sides[side], side === 1).map(({ cards }) => cards),
      })),
    };
  }
  if (Array.isArray(view.field)) {
    const columns = scatterColumns(view.pool_size || view.field.length);
    return {
      kind: "field",
      columns,
      cards: scatterOrder(view.field, columns).map(([poem, x, y, deg]) => ({ poem, x, y, deg })),
      taken: (view.taken || []).map((cards) => cards.length),
    };
  }
  return null;
}

/** A card's printed face: five columns of kana, or null for a poem it does not know. */
export function cardFace(cards, poem) {
  const card = cards[String(poem)];
  return card ? torifudaColumns(card) : null;
}
