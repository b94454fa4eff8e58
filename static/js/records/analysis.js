// What the record shows beside the board, computed from the replayed steps (the server's
// replay through the engine): Bozu's hand sizes and draws, karuta's readings (taker, each
// touch's time after the deciding kana, otetsuki, sends, refusals as the judge logged them)
// and slowest cards, Bakudan's placements and peeks. Pure (Node-tested).

/** Bozu: cards in each hand after every step, one series per seat. */
export function handSeries(steps) {
  const players = steps.find((s) => s.view?.hand_counts)?.view.hand_counts.length ?? 0;
  return Array.from({ length: players }, (_, seat) => steps.map((s) => s.view?.hand_counts?.[seat] ?? null));
}

/** Bozu: every drawn card in order: {step, seat, poem, poet}. */
export function draws(steps) {
  return steps.flatMap((s, step) => (s.events || [])
    .filter((e) => e.type === "drew")
    .map((e) => ({ step, seat: e.seat, poem: e.poem ?? e.card ?? null, poet: e.poet ?? s.view?.last_card?.poet ?? "" })));
}

/** Bakudan: marks for a step's move list entry: a bomb put back, a peek. */
export function bakudanMarks(step) {
  const types = new Set((step.events || []).map((e) => e.type));
  return { placed: types.has("bomb_placed"), peeked: types.has("peeked") };
}

/**
 * Karuta: one entry per resolved reading, in order. The deciding kana's time comes from the
 * reading as it stood before the step that resolved it.
 */
export function readings(steps) {
  const found = [];
  let reading = null; // the reading in progress (from the last view that had one)
  let refused = [];
  for (const step of steps) {
    if (step.kind === "refused" && step.seat !== null) refused.push(step.seat);
    for (const e of step.events || []) {
      if (e.type !== "result") continue;
      const decided = e.decided ?? reading?.decided ?? null;
      const reaches = e.reaches ?? (e.t === null || e.t === undefined ? [] : [[0, e.t]]);
      found.push({
        step: steps.indexOf(step),
        number: e.number,
        poem: e.poem,
        dead: Boolean(e.dead),
        taker: e.taker ?? (e.t === null || e.t === undefined ? null : 0),
        reaches: reaches.map(([seat, t]) => ({ seat, after: decided === null ? null : t - decided })),
        by: e.by ?? null,
        otetsuki: e.otetsuki ?? null,
        wrong: e.wrong ? e.wrong.length : 0,
        send: e.send ?? null,
        refused,
      });
      refused = [];
    }
    if (step.view?.reading) reading = step.view.reading;
  }
  return found;
}

/** Karuta: per seat, its time after the deciding kana on each reading (null: no touch). */
export function takeSeries(list, players) {
  return Array.from({ length: players }, (_, seat) => list.filter((r) => !r.dead)
    .map((r) => r.reaches.find((x) => x.seat === seat)?.after ?? null));
}

/**
 * Karuta: a seat's slowest cards: missed ones first, then the slowest touches after the
 * deciding kana (as games/karuta/stats.slowest_poems orders practice), live cards only.
 */
export function slowest(list, seat, count) {
  const rank = (x) => (x.after === null ? Infinity : x.after);
  return list.filter((r) => !r.dead)
    .map((r) => ({ poem: r.poem, after: r.reaches.find((x) => x.seat === seat)?.after ?? null }))
    .sort((a, b) => (rank(a) === rank(b) ? 0 : rank(b) > rank(a) ? 1 : -1))
    .slice(0, count);
}

/**
 * Karuta: a seat's readings in the shape the trainer's "add to today's review" takes (as the
 * solo result screen's records, static/js/trainer/from-play.js `picks`): { poem, t (null:
 * not touched), wrong (its otetsuki, or the wrong cards of a solo game), after_kimariji }.
 */
export function practiceRecords(list, seat) {
  return list.filter((r) => !r.dead).map((r) => {
    const after = r.reaches.find((x) => x.seat === seat)?.after ?? null;
    const faults = r.otetsuki ? r.otetsuki[seat] ?? 0 : r.wrong;
    return { poem: r.poem, t: after, wrong: Array(faults).fill(r.poem), after_kimariji: after };
  });
}
