// node --test: finding cards by the beginning of their torifuda, in kana or romaji.
import assert from "node:assert/strict";
import { test } from "node:test";

import { matchPoems, plain, romajiToKana } from "../../static/js/karuta/typeahead.js";

const cards = { 1: { tori: "わかころもては つゆにぬれつつ" }, 2: { tori: "ころもほすてふ あまのかくやま" }, 3: { tori: "わかみよにふる なかめせしまに" } };

test("romaji becomes kana; what cannot be read yet is kept", () => {
  assert.deepEqual(romajiToKana("waga"), { kana: "わか", rest: "" });
  assert.deepEqual(romajiToKana("shi"), { kana: "し", rest: "" });
  assert.deepEqual(romajiToKana("kko"), { kana: "つこ", rest: "" });
  assert.deepEqual(romajiToKana("wak"), { kana: "わ", rest: "k" });
  assert.deepEqual(romajiToKana("nnna"), { kana: "んな", rest: "" }); // "nn" is ん
  // Doubled kana pass through as they are: only a doubled romaji consonant is っ.
  assert.deepEqual(romajiToKana("おお"), { kana: "おお", rest: "" });
  assert.deepEqual(romajiToKana("ささ"), { kana: "ささ", rest: "" });
  assert.deepEqual(romajiToKana("ooe"), { kana: "おおえ", rest: "" });
  assert.deepEqual(romajiToKana("oおe"), { kana: "おおえ", rest: "" });
});

test("voicing marks and small kana do not matter", () => {
  assert.equal(plain("がっ ぱ"), "かつは");
});

test("matches keep the order given and need a start", () => {
  const poems = [3, 1, 2];
  assert.deepEqual(matchPoems("wakako", poems, cards), [1]);
  assert.deepEqual(matchPoems("わか", poems, cards), [3, 1]);
  assert.deepEqual(matchPoems("wak", poems, cards), [3, 1]);
  assert.deepEqual(matchPoems("", poems, cards), []);
  assert.deepEqual(matchPoems("x", poems, cards), []);
});
