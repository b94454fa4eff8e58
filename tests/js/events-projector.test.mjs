// node --test: what the projector draws of a karuta board (static/js/events/projector-board.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardFace, projectorBoard } from "../../static/js/events/projector-board.js";

const sided = {
  game: "karuta",
  mode: "competitive",
  sides: [
    [[1, 2], [3], [4, 5]],
    [[6], [7, 8], [9]],
  ],
};

test("competitive: seat 1's side across the line, reversed and upside down; seat 0's below", () => {
  const board = projectorBoard(sided);
  assert.equal(board.kind, "sides");
  assert.equal(board.perRow, 2); // the longest row, which the cards are sized to fit
  assert.deepEqual(board.sides.map((s) => [s.side, s.upsideDown, s.count]), [[1, true, 4], [0, false, 5]]);
  assert.deepEqual(board.sides[0].rows, [[9], [8, 7], [6]]);
  assert.deepEqual(board.sides[1].rows, [[1, 2], [3], [4, 5]]);
});

test("chirashi: the field's cards where they lie, in keyboard order, and the piles' counts", () => {
  const board = projectorBoard({ game: "karuta", mode: "chirashi", pool_size: 4, field: [[10, 0.9, 0.1, 5], [11, 0.1, 0.1, -5], [12, 0.5, 0.9, 0]], taken: [[1], []] });
  assert.equal(board.kind, "field");
  assert.equal(board.columns, 2);
  assert.deepEqual(board.cards.map((c) => c.poem), [11, 10, 12]);
  assert.deepEqual(board.taken, [1, 0]);
});

test("other games and frames without cards draw no board", () => {
  assert.equal(projectorBoard({ game: "bozu" }), null);
  assert.equal(projectorBoard({ game: "karuta", mode: "solo" }), null);
  assert.equal(projectorBoard(null), null);
});

test("a card's face is its torifuda in five columns of kana", () => {
  const cards = { 1: "わかころもては つゆにぬれつつ" };
  assert.deepEqual(cardFace(cards, 1), ["わかこ", "ろもて", "はつゆ", "にぬれ", "つつ"]);
  assert.equal(cardFace(cards, 2), null);
});
