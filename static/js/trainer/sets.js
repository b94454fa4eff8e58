// The sets a drill can run over, and the cards of one session. Pure (Node-tested).
// Every set is computed: lengths and look-alike groups from the poems' compared sounds
// (lookalikes.js), the 20-poem sets and five colours from the page's data.
import { lookalikeGroups, staticLengths } from "./lookalikes.js";

/**
 * All sets: { id, kind, poems, ... } with kind one of all | one-kana | length | range |
 * colour | group (a look-alike group; `prefix`, `shrink`).
 */
export function buildSets(data, lengths = staticLengths(data.poems)) {
  const all = data.poems.map((p) => p.n);
  const sets = [{ id: "all", kind: "all", poems: all }];
  const byLength = new Map();
  for (const n of all) {
    const len = lengths.get(n);
    if (!byLength.has(len)) byLength.set(len, []);
    byLength.get(len).push(n);
  }
  sets.push({ id: "one-kana", kind: "one-kana", poems: byLength.get(1) ?? [] });
  for (const len of [...byLength.keys()].sort((a, b) => a - b)) {
    sets.push({ id: `length-${len}`, kind: "length", length: len, poems: byLength.get(len) });
  }
  data.sets.forEach((poems, i) => {
    sets.push({ id: `range-${i + 1}`, kind: "range", first: poems[0], last: poems[poems.length - 1], poems });
  });
  data.colours.forEach((colour, i) => {
    sets.push({ id: `colour-${i + 1}`, kind: "colour", name: colour.name, poems: colour.poems });
  });
  lookalikeGroups(data.poems, { lengths }).forEach((group, i) => {
    sets.push({ id: `group-${i + 1}`, kind: "group", prefix: group.prefix, shrink: group.shrink, poems: group.poems });
  });
  return sets;
}

export function findSet(sets, id) {
  const found = sets.find((s) => s.id === id);
  if (!found) throw new Error(`no such set: ${id}`);
  return found;
}

/**
 * The poems of one session over `set`, at most `count`: those due first (most overdue),
 * then new ones, then the rest least likely recalled first (`recall(n)`, 0–1); ties by a
 * shuffle from `rand`, so two sessions over one set do not run in the same order.
 */
export function sessionCards(set, { count, isDue, isNew, recall, rand }) {
  const keyed = set.poems.map((n) => ({ n, tie: rand(), rank: isDue(n) ? 0 : isNew(n) ? 1 : 2, r: recall(n) }));
  keyed.sort((a, b) => a.rank - b.rank || (a.rank === 2 ? a.r - b.r : 0) || a.tie - b.tie);
  return keyed.slice(0, count).map((k) => k.n);
}
