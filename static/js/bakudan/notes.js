// The info panel: three slots for the top three cards of the deck, plus the seat's own
// bomb note (where it put a bomb back). Pure, tested with node --test.

export const SLOTS = 3;

/**
 * notes: the view's `notes` ([{position, card: {id, kind}}], position 0 = top) or null.
 * deckCount: cards left in the deck, so a slot below the bottom card reads "no card".
 * Returns {slots: [{position, state: "known"|"unknown"|"none", kind}], bomb: {position}|null,
 *          deeper: [{position, kind}]}.
 */
export function notesLayout(notes, deckCount) {
  const known = new Map();
  for (const note of notes ?? []) {
    if (note && Number.isInteger(note.position) && note.card) known.set(note.position, note.card.kind);
  }
  const slots = [];
  for (let position = 0; position < SLOTS; position += 1) {
    if (position >= deckCount) slots.push({ position, state: "none", kind: null });
    else if (known.has(position)) slots.push({ position, state: "known", kind: known.get(position) });
    else slots.push({ position, state: "unknown", kind: null });
  }
  let bomb = null;
  const deeper = [];
  for (const [position, kind] of [...known.entries()].sort((a, b) => a[0] - b[0])) {
    if (kind === "bomb" && bomb === null) bomb = { position };
    if (position >= SLOTS) deeper.push({ position, kind });
  }
  return { slots, bomb, deeper };
}

/** "1st from the top" style ordinal position for people (position 0 is the top card). */
export function fromTop(position) {
  return position + 1;
}
