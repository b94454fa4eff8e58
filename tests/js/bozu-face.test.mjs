// node --test: Bozu card faces differ per class in colour AND shape; names run in columns.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CLASS_LOOK, backSvg, faceSvg, lookOf, markPath, nameColumns, pileLayers } from "../../static/js/bozu/face.js";

const classes = ["monk", "princess", "noble", "emperor", "semimaru"];

test("every class has its own colour, its own mark shape and its own frame", () => {
  for (const key of ["colour", "mark", "frame", "glyph"]) {
    assert.equal(new Set(classes.map((c) => CLASS_LOOK[c][key])).size, 5, key);
  }
  assert.equal(lookOf("nyudo"), CLASS_LOOK.noble);
  assert.equal(lookOf("nonsense"), CLASS_LOOK.noble);
});

test("the marks are different paths, and an unknown mark is an error", () => {
  const paths = classes.map((c) => markPath(CLASS_LOOK[c].mark, 60, 25, 12));
  assert.equal(new Set(paths).size, 5);
  assert.throws(() => markPath("star", 0, 0, 1), /unknown mark/);
});

test("a face names the poet in vertical text, one character per line, and says its class", () => {
  const svg = faceSvg({ poet: "喜撰法師", class: "monk" }, "Monk");
  assert.match(svg, /data-class="monk"/);
  assert.match(svg, /data-mark="circle"/);
  assert.match(svg, /aria-label="喜撰法師（Monk）"/);
  const ys = [...svg.matchAll(/<tspan x="([\d.]+)" y="([\d.]+)">(.)<\/tspan>/g)];
  assert.deepEqual(ys.map((m) => m[3]).join(""), "喜撰法師");
  assert.equal(new Set(ys.map((m) => m[1])).size, 1, "one column");
  assert.ok(ys.every((m, i) => i === 0 || Number(m[2]) > Number(ys[i - 1][2])), "top to bottom");
});

test("nyudo are drawn as nobles; text is escaped", () => {
  assert.match(faceSvg({ poet: "入道前太政大臣", class: "nyudo" }), /data-class="noble"/);
  assert.match(faceSvg({ poet: "<b>", class: "princess" }), /&#60;b&#62;/);
});

test("long names take balanced columns, right to left", () => {
  assert.deepEqual(nameColumns("後京極摂政前太政大臣"), ["後京極摂政", "前太政大臣"]);
  assert.deepEqual(nameColumns("蝉丸"), ["蝉丸"]);
  assert.equal(nameColumns("a".repeat(15)).length, 3);
  const svg = faceSvg({ poet: "後京極摂政前太政大臣", class: "noble" });
  const xs = [...svg.matchAll(/<tspan x="([\d.]+)"/g)].map((m) => Number(m[1]));
  assert.ok(xs[0] > xs[xs.length - 1], "the first column is on the right");
});

test("the back is the same for every card and hides nothing", () => {
  assert.equal(backSvg(), backSvg());
  assert.doesNotMatch(backSvg(), /id=/);
  assert.match(backSvg(), /aria-hidden="true"/);
});

test("a pile's height follows its count", () => {
  assert.equal(pileLayers(0), 0);
  assert.equal(pileLayers(1), 1);
  assert.ok(pileLayers(20) > pileLayers(5));
  assert.equal(pileLayers(100), 12);
});

test("every name fits on the card, below the class band", () => {
  for (const poet of ["蝉丸", "皇嘉門院別当", "後京極摂政前太政大臣", "入道前太政大臣", "a".repeat(17)]) {
    const svg = faceSvg({ poet, class: "noble" });
    const size = Number(svg.match(/class="face-name" font-size="([\d.]+)"/)[1]);
    const ys = [...svg.matchAll(/<tspan x="([\d.]+)" y="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.ok(Math.max(...ys.map(([, y]) => y)) + size * 0.2 <= 168 - 8, `${poet} fits the height`);
    assert.ok(Math.min(...ys.map(([, y]) => y)) - size >= 42, `${poet} starts below the band`);
    assert.ok(Math.min(...ys.map(([x]) => x)) - size / 2 >= 8 && Math.max(...ys.map(([x]) => x)) + size / 2 <= 112, `${poet} fits the width`);
  }
});
