// node --test: the scores as a picture, in place order, the bars as long as the scores.
import assert from "node:assert/strict";
import { test } from "node:test";

import { scoreBarsSvg } from "../../static/js/score-bars.js";

const widths = (svg) => [...svg.matchAll(/<rect [^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));

test("bars follow the scores and the rows follow the places", () => {
  const svg = scoreBarsSvg([
    { label: "Blue", value: 10, colour: "blue", place: 2 },
    { label: "Red", value: 40, colour: "red", place: 1 },
    { label: "Green", value: 0, colour: "green", place: 3 },
  ], { title: "Cards" });
  assert.match(svg, /role="img" aria-label="Cards"/);
  assert.deepEqual([...svg.matchAll(/data-place="(\d)"/g)].map((m) => m[1]), ["1", "2", "3"]);
  const [red, blue, green] = widths(svg);
  assert.ok(red > blue && blue > green && green > 0);
  assert.ok(Math.abs(red / blue - 4) < 0.01);
  assert.match(svg, /★ Red/);
  assert.match(svg, /seat-fill-blue/);
});

test("labels are escaped; all-zero scores still draw", () => {
  const svg = scoreBarsSvg([{ label: "<x>", value: 0, colour: null, place: 1 }]);
  assert.match(svg, /&#60;x&#62;/);
  assert.match(svg, /seat-fill-none/);
});

test("a caption says what the bars count, above them, and in the accessible name", () => {
  // Competitive karuta counts the cards left: the winner's bar is the empty one.
  const rows = [{ label: "Red", value: 0, colour: "red", place: 1 }, { label: "Blue", value: 6, colour: "blue", place: 2 }];
  const svg = scoreBarsSvg(rows, { title: "Cards left", caption: "The first to clear their side wins." });
  assert.match(svg, /<text [^>]*class="score-caption">The first to clear their side wins.<\/text>/);
  assert.match(svg, /aria-label="Cards left: The first to clear their side wins."/);
  const captionY = Number(svg.match(/class="score-caption"/) && svg.match(/<text x="4" y="([\d.]+)"/)[1]);
  const firstBarY = Number(svg.match(/<rect [^>]*y="([\d.]+)"/)[1]);
  assert.ok(captionY < firstBarY, "the caption is above the bars");
  assert.doesNotMatch(scoreBarsSvg(rows, { title: "Cards" }), /score-caption/);
});
