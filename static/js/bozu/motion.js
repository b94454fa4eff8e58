// What the table should show moving, from the events of one frame. Pure (Node-tested):
// the view module plays these; a frame's state is always drawn first, never held back.

/**
 * @param {Array<{events: object[], texts?: string[]}>} entries  the frame's fresh entries
 * @returns {Array<object>} motions in order:
 *   {kind: "flip", seat, poem, cls}          a card turned over from the pile
 *   {kind: "to_field", seat, cards}          a monk: the drawer's hand slides to the field
 *   {kind: "took_field", seat, cards}        a princess: the field slides to the drawer
 *   {kind: "others_to_field", seat, moved}   Semimaru (that rule): the other hands go
 *   {kind: "skipped", seat, text}            a seat loses its turn
 *   {kind: "skip_next", seat, text}          a seat will lose its next turn
 *   {kind: "extra", seat, reason, text}      the same seat draws again
 */
export function motionsFor(entries) {
  const out = [];
  for (const entry of entries) {
    entry.events.forEach((event, i) => {
      const text = entry.texts?.[i] ?? "";
      switch (event.type) {
        case "drew": out.push({ kind: "flip", seat: event.seat, poem: event.poem, cls: event.class }); break;
        case "to_field": out.push({ kind: "to_field", seat: event.seat, cards: event.cards }); break;
        case "took_field":
          if (event.from_field > 0) out.push({ kind: "took_field", seat: event.seat, cards: event.from_field });
          break;
        case "others_to_field":
          if (event.cards > 0) out.push({ kind: "others_to_field", seat: event.seat, moved: event.moved.filter((m) => m.cards > 0) });
          break;
        case "turn_skipped": out.push({ kind: "skipped", seat: event.seat, text }); break;
        case "skip_next": out.push({ kind: "skip_next", seat: event.seat, text }); break;
        case "extra_draw": out.push({ kind: "extra", seat: event.seat, reason: event.reason, text }); break;
        default: break;
      }
    });
  }
  return out;
}

/** The sound a frame deserves, the most telling one only: win > take > fault > flip. */
export function soundFor(motions, result, mine) {
  if (result) return result.winners.some((s) => mine.includes(s)) ? "win" : "end";
  if (motions.some((m) => m.kind === "took_field")) return "take";
  if (motions.some((m) => m.kind === "to_field" || m.kind === "others_to_field")) return "fault";
  if (motions.some((m) => m.kind === "flip")) return "flip";
  return null;
}
