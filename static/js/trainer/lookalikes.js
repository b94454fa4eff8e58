// Kimariji and look-alike groups, computed from each poem's compared sounds (the `keys`
// that platform/poems/kimariji.py decides on, embedded by the page). Pure (Node-tested).

/** How many sounds two beginnings share. */
export function sharedPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/** Sounds needed to decide `poem` while the poems in `read` are out (as dynamic_kimariji). */
export function kimarijiLength(poem, poems, read = new Set()) {
  let longest = 0;
  for (const other of poems) {
    if (other.n !== poem.n && !read.has(other.n)) longest = Math.max(longest, sharedPrefix(poem.keys, other.keys));
  }
  return Math.min(longest + 1, poem.keys.length);
}

/** Each poem's kimariji length before any poem is read: Map n → length. */
export function staticLengths(poems) {
  return new Map(poems.map((p) => [p.n, kimarijiLength(p, poems)]));
}

// Hiragana code points run in the syllabary's order (あいうえお かが…), which is all the menu
// needs; a "ja" collator would cost the page's start some 30 ms to build (more on a phone).
const kanaOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Look-alike groups: poems sharing a beginning, 2 to `max` of them. Each distinct set of
 * poems appears once, under its longest shared beginning (あさ: 31, 39, 64; あさぼらけ: 31,
 * 64). `shrink`: every member is decided on the sound right after that beginning, so
 * reading one shortens the others' kimariji.
 */
export function lookalikeGroups(poems, { max = 8, lengths = staticLengths(poems) } = {}) {
  const byMembers = new Map();
  const depth = Math.max(...poems.map((p) => p.keys.length));
  for (let d = 1; d <= depth; d += 1) {
    const nodes = new Map();
    for (const p of poems) {
      if (p.keys.length < d) continue;
      const key = p.keys.slice(0, d).join("");
      if (!nodes.has(key)) nodes.set(key, []);
      nodes.get(key).push(p);
    }
    let shared = false;
    for (const members of nodes.values()) {
      if (members.length >= 2) shared = true;
      if (members.length < 2 || members.length > max) continue;
      const numbers = members.map((p) => p.n).sort((a, b) => a - b);
      byMembers.set(numbers.join(","), { depth: d, members, numbers }); // deeper d overwrites
    }
    if (!shared) break; // no two poems begin alike this far: nothing deeper either
  }
  return [...byMembers.values()]
    .map(({ depth: d, members, numbers }) => ({
      prefix: members[0].said.slice(0, d).join(""),
      poems: numbers,
      shrink: members.every((p) => lengths.get(p.n) === d + 1),
    }))
    .sort((a, b) => kanaOrder(a.prefix, b.prefix) || a.poems[0] - b.poems[0]);
}

/**
 * The `count` poems most like `poem` (longest shared beginning first, then poem order):
 * the look-alikes a choice is made among.
 */
export function nearest(poem, poems, count) {
  return poems
    .filter((p) => p.n !== poem.n)
    .map((p) => [sharedPrefix(poem.keys, p.keys), p.n])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, count)
    .map(([, n]) => n);
}
