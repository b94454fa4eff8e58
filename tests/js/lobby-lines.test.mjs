// node --test: the lobby's lines from a board frame (static/js/lobby/lines.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { fill, poolText, seekText, watchText } from "../../static/js/lobby/lines.js";

const names = {
  games: { karuta: "Karuta", bozu: "Bozu" },
  paces: { standard: "Standard" },
  modes: { competitive: "competitive", chirashi: "chirashi" },
};
const strings = {
  players: "{n} players", rated: "rated", casual: "casual", guest: "guest", waiting: "{n} waiting",
  seated: "{n} of {seats} seated",
};

test("a seek reads game, mode, pace, rated and the seeker", () => {
  const seek = { game: "karuta", mode: "competitive", players: 2, pace: "standard", rated: true, handle: "taro", rating: "1620?" };
  assert.equal(seekText(seek, names, strings), "Karuta · competitive · Standard · rated — taro (1620?)");
});

test("a guest's seek says guest, and a table says its players", () => {
  const seek = { game: "bozu", players: 4, rated: false, handle: null, rating: null };
  assert.equal(seekText(seek, names, strings), "Bozu · 4 players · casual — guest");
});

test("a table's seek says how many sit at it so far", () => {
  const seek = { game: "bozu", players: 4, seats: 4, seated: 2, rated: false, handle: "hana", rating: null };
  assert.equal(seekText(seek, names, strings), "Bozu · 4 players · casual · 2 of 4 seated — hana");
});

test("a game to watch names its players with their ratings", () => {
  const game = { game: "karuta", players: [{ handle: "a", rating: "1900" }, { handle: "b", rating: null }] };
  assert.equal(watchText(game, names, strings), "Karuta: a (1900) – b");
});

test("a pool's queue is empty when nobody waits", () => {
  assert.equal(poolText({ waiting: 0 }, strings), "");
  assert.equal(poolText({ waiting: 3 }, strings), "3 waiting");
  assert.equal(poolText(undefined, strings), "");
  assert.equal(fill("{a}-{b}", { a: 1 }), "1-");
});
