// node --test: kimariji and look-alike groups computed from the poems' compared sounds.
import assert from "node:assert/strict";
import { test } from "node:test";

import { kimarijiLength, lookalikeGroups, nearest, staticLengths } from "../../static/js/trainer/lookalikes.js";
import { data, poem } from "./trainer-fixture.mjs";

const kimariji = (n, len) => poem(n).said.slice(0, len).join("");

test("the seven one-kana poems are むすめふさほせ", () => {
  const lengths = staticLengths(data.poems);
  const one = [...lengths].filter(([, len]) => len === 1).map(([n]) => kimariji(n, 1));
  assert.deepEqual(one.sort(), [..."むすめふさほせ"].sort());
  assert.equal(Math.max(...lengths.values()), 6);
  assert.equal([...lengths.values()].filter((len) => len === 6).length, 6); // the 大山札
});

test("a kimariji shrinks once its look-alike is read", () => {
  // ちぎりお (75) shares ちぎり with ちぎりき (42); once that is read, only ち with ちはや (17).
  assert.equal(kimarijiLength(poem(75), data.poems), 4);
  assert.equal(kimarijiLength(poem(75), data.poems, new Set([42])), 2);
});

test("look-alike groups come out of the shared beginnings", () => {
  const groups = lookalikeGroups(data.poems);
  const find = (poems) => groups.find((g) => g.poems.join() === poems.join());
  const asaborake = find([31, 64]);
  assert.equal(asaborake.prefix, "あさぼらけ");
  assert.equal(asaborake.shrink, true);
  const asa = find([31, 39, 64]);
  assert.equal(asa.prefix, "あさ");
  assert.equal(asa.shrink, false); // あさぢ is decided at its third sound, the others at their sixth
  assert.ok(find([42, 75]).shrink);
  for (const g of groups) assert.ok(g.poems.length >= 2 && g.poems.length <= 8);
  assert.equal(new Set(groups.map((g) => g.poems.join())).size, groups.length);
  // Each group's poems share its beginning, and no poem outside it does.
  for (const g of groups) {
    const sharing = data.poems.filter((p) => p.said.join("").startsWith(g.prefix) || g.poems.includes(p.n));
    assert.deepEqual(sharing.map((p) => p.n).sort((a, b) => a - b), g.poems, g.prefix);
  }
});

test("nearest look-alikes share the longest beginning", () => {
  assert.deepEqual(nearest(poem(31), data.poems, 2), [64, 39]);
  assert.deepEqual(nearest(poem(42), data.poems, 1), [75]);
});

test("groups come in the syllabary's order, as a Japanese collator sorts them", () => {
  const prefixes = lookalikeGroups(data.poems).map((g) => g.prefix);
  assert.deepEqual(prefixes, [...prefixes].sort((a, b) => a.localeCompare(b, "ja")));
  assert.ok(prefixes.indexOf("あさ") < prefixes.indexOf("あさぼらけ"));
});
