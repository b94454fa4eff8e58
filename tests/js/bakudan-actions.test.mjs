import assert from "node:assert/strict";
import { test } from "node:test";

import { KEYS, keyAction, panelModel, placeAction, placeRefusal, playAction } from "../../static/js/bakudan/actions.js";
import { seatView } from "./bakudan-fixtures.mjs";

test("one group per kind in hand, playable only if the server lists it", () => {
  const model = panelModel(seatView(), 0);
  assert.equal(model.phase, "act");
  assert.deepEqual(model.groups.map((g) => [g.kind, g.count, g.playable]), [
    ["peek", 2, true], ["snatch", 1, true], ["push", 1, true], ["nipper", 1, false], ["blank", 1, false],
  ]);
  assert.deepEqual(model.groups.find((g) => g.kind === "snatch").targets, [1, 2]);
  assert.equal(model.groups.find((g) => g.kind === "push").endsTurn, true);
  assert.equal(model.groups.find((g) => g.kind === "nipper").key, null);
  assert.deepEqual(model.draw, { enabled: true, owed: 1 });
});

test("a card the server does not list stays unplayable, even on your turn", () => {
  const view = seatView({ legal: [{ type: "draw" }] });
  const model = panelModel(view, 0);
  assert.ok(model.groups.every((g) => !g.playable));
  assert.equal(model.draw.enabled, true);
});

test("the draws owed come from the view, only on this seat's turn", () => {
  assert.equal(panelModel(seatView({ owed: 2 }), 0).draw.owed, 2);
  const waiting = panelModel(seatView({ to_act: 1, owed: 2, legal: [] }), 0);
  assert.equal(waiting.phase, "wait");
  assert.equal(waiting.owed, 0);
  assert.equal(waiting.draw.enabled, false);
});

test("spectators, out and finished seats get no actions", () => {
  assert.equal(panelModel(seatView({ hand: null, legal: [] }), null).phase, "none");
  assert.equal(panelModel(null, 0).phase, "none");
  const out = seatView({ to_act: 1, legal: [], hand: [] });
  out.seats[0] = { ...out.seats[0], alive: false, place: 3 };
  assert.equal(panelModel(out, 0).phase, "out");
  assert.equal(panelModel(seatView({ over: true, legal: [] }), 0).phase, "over");
});

test("bomb placement: every choice, the position range from the deck or the list", () => {
  const legal = [
    { type: "place_bomb", where: "top" }, { type: "place_bomb", where: "bottom" },
    { type: "place_bomb", where: "random" }, { type: "place_bomb", where: "position" },
  ];
  const model = panelModel(seatView({ legal, deck_count: 12, pending: { type: "place_bomb", seat: 0 } }), 0);
  assert.equal(model.phase, "place");
  assert.deepEqual(model.place, { where: ["top", "bottom", "random"], position: { min: 0, max: 12 } });
  assert.deepEqual(placeAction(model.place, "top"), { type: "place_bomb", where: "top" });
  assert.deepEqual(placeAction(model.place, 5), { type: "place_bomb", where: "position", position: 5 });
  assert.equal(placeAction(model.place, 13), null);
  assert.equal(placeAction(model.place, -1), null);
  assert.equal(placeAction(model.place, "sideways"), null);
  const listed = panelModel(seatView({ legal: [0, 1, 2, 3].map((p) => ({ type: "place_bomb", where: "position", position: p })) }), 0);
  assert.deepEqual(listed.place, { where: [], position: { min: 0, max: 3 } });
});

test("a position beyond the deck is refused with the positions it allows, counted from 1", () => {
  const place = { where: ["top", "bottom", "random"], position: { min: 0, max: 12 } };
  for (const choice of [13, -1, NaN, 2.5]) assert.deepEqual(placeRefusal(place, choice), { min: 1, max: 13 }, String(choice));
  assert.equal(placeRefusal(place, 12), null);
  assert.equal(placeRefusal(place, 0), null);
  assert.equal(placeRefusal(place, "top"), null, "the buttons need no message");
  assert.equal(placeRefusal({ where: ["top"], position: null }, 3), null);
});

test("the action a button sends is one the server listed", () => {
  const model = panelModel(seatView(), 0);
  const peek = model.groups.find((g) => g.kind === "peek");
  assert.deepEqual(playAction(peek), { type: "play", card: "c3" });
  const snatch = model.groups.find((g) => g.kind === "snatch");
  assert.deepEqual(playAction(snatch, 2), { type: "play", card: "c4", target: 2 });
  assert.equal(playAction(snatch, 0), null); // not a listed target
  assert.equal(playAction(model.groups.find((g) => g.kind === "nipper")), null);
});

test("keys: D draws, digits play their fixed kind, T/B/R place the bomb", () => {
  const model = panelModel(seatView(), 0);
  assert.deepEqual(keyAction(model, "d"), { kind: "draw" });
  assert.deepEqual(keyAction(model, "D"), { kind: "draw" });
  assert.equal(keyAction(model, KEYS.peek).group.kind, "peek");
  assert.equal(keyAction(model, KEYS.shield), null); // no shield in hand
  assert.equal(keyAction(model, "t"), null);
  const placing = panelModel(seatView({ legal: [{ type: "place_bomb", where: "top" }] }), 0);
  assert.deepEqual(keyAction(placing, "t"), { kind: "place", where: "top" });
  assert.equal(keyAction(placing, "b"), null);
  assert.equal(keyAction(placing, "d"), null);
  assert.equal(new Set(Object.values(KEYS)).size, 7);
});
