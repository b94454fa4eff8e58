// node --test: drill questions, judging answers, and the export file's checks.
import assert from "node:assert/strict";
import { test } from "node:test";

import { mulberry32 } from "../../static/js/trainer/daily.js";
import { exportFile, ImportError, parseFile } from "../../static/js/trainer/data-file.js";
import { AGAIN, EASY, HARD } from "../../static/js/trainer/grade.js";
import { newRecord, review } from "../../static/js/trainer/schedule.js";
import { indexPoems, judge, playOrder, question } from "../../static/js/trainer/session.js";
import { data } from "./trainer-fixture.mjs";

const byN = indexPoems(data);

test("a choice is among the card and its nearest look-alikes", () => {
  const q = question(31, "choose", byN, { rand: mulberry32(1), choices: 6 });
  assert.equal(q.options.length, 6);
  assert.ok(q.options.includes(31) && q.options.includes(64) && q.options.includes(39));
  assert.equal(judge(q, { chosen: 31 }, 800, byN).rating, EASY);
  assert.deepEqual(judge(q, { chosen: 64 }, 800, byN), { correct: false, chosen: 64, rating: AGAIN });
  assert.equal(question(31, "nagashi", byN, { rand: mulberry32(1) }).options.length, 4);
});

test("typing a card's start: kana or romaji, right only when it points at that card alone", () => {
  const q = question(1, "tori-type", byN, { rand: mulberry32(1) });
  assert.equal(q.options, undefined);
  assert.equal(byN.get(1).tori.startsWith("わかころもては"), true);
  assert.equal(judge(q, { typed: "wagakoromodeha" }, 2000, byN).correct, true);
  assert.equal(judge(q, { typed: "わかころもては" }, 2000, byN).correct, true);
  assert.equal(judge(q, { typed: "わか" }, 2000, byN).correct, false, "わか starts several cards");
  assert.equal(judge(q, { typed: "" }, 2000, byN).correct, false);
});

test("typing a kimariji as it is said: あふ is おお", () => {
  const afu = [...byN.values()].find((p) => p.head.startsWith("あふ"));
  assert.equal(afu.kimariji, "おうこ"); // 逢ふことの, said おうことの
  const q = question(afu.n, "kimariji-type", byN, { rand: mulberry32(1) });
  assert.equal(judge(q, { typed: "おおこ" }, 1000, byN).correct, true);
  assert.equal(judge(q, { typed: "ooko" }, 1000, byN).correct, true);
  assert.equal(judge(q, { typed: afu.kimariji }, 1000, byN).correct, true);
  assert.equal(judge(q, { typed: afu.head.replace(/ /g, "").slice(0, afu.length) }, 1000, byN).correct, false);
  const slow = judge(q, { typed: afu.kimariji }, 20000, byN);
  assert.deepEqual([slow.correct, slow.rating], [true, HARD]);
  const mu = [...byN.values()].find((p) => p.kimariji === "む");
  assert.equal(judge(question(mu.n, "kimariji-type", byN, { rand: mulberry32(1) }), { typed: "mu" }, 500, byN).rating, EASY);
});

test("札流し goes round its set again; the other drills ask once", () => {
  assert.deepEqual(playOrder([1, 2, 3], "choose", mulberry32(1)), [1, 2, 3]);
  const long = playOrder([1, 2, 3], "nagashi", mulberry32(1), 4);
  assert.equal(long.length, 12);
  assert.deepEqual(long.slice(0, 3), [1, 2, 3]);
});

test("an export file reads back to the same records and log", () => {
  const records = new Map([[5, review(newRecord(5), { rating: EASY, ms: 900, now: 1e12, chosen: null })], [9, newRecord(9)]]);
  const log = [[1e12, 5, 4, 900, 0]];
  const back = parseFile(exportFile(records, log, 1e12));
  assert.deepEqual(back.records, records);
  assert.deepEqual(back.log, log);
});

test("a foreign or damaged file is refused with its reason", () => {
  const good = JSON.parse(exportFile(new Map([[5, newRecord(5)]]), [], 0));
  const reason = (text) => {
    try {
      parseFile(text);
    } catch (e) {
      assert.ok(e instanceof ImportError);
      return e.reason;
    }
    return "accepted";
  };
  assert.equal(reason("{nope"), "not-json");
  assert.equal(reason(JSON.stringify({ hello: 1 })), "foreign");
  assert.equal(reason(JSON.stringify({ ...good, version: 99 })), "version");
  assert.equal(reason(JSON.stringify({ ...good, poems: [{ ...good.poems[0], n: 101 }] })), "damaged");
  assert.equal(reason(JSON.stringify({ ...good, poems: [good.poems[0], good.poems[0]] })), "damaged");
  assert.equal(reason(JSON.stringify({ ...good, poems: [{ ...good.poems[0], misses: 2 }] })), "damaged");
  assert.equal(reason(JSON.stringify({ ...good, log: [[0, 5, 7, 10, 0]] })), "damaged");
  assert.equal(reason(JSON.stringify({ ...good, poems: [{ ...good.poems[0], card: { due: "soon" } }] })), "damaged");
  assert.equal(reason(JSON.stringify(good)), "accepted");
});

test("the review log packs into binary chunks and back unchanged", async () => {
  const { packLog, unpackLog } = await import("../../static/js/trainer/store.js");
  const log = Array.from({ length: 600 }, (_, i) => [Date.UTC(2026, 0, 1) + i * 3600123, (i % 100) + 1, 1 + (i % 4), 512 + i, i % 4]);
  const chunks = packLog(log);
  assert.deepEqual(chunks.map((c) => c.count), [256, 256, 88]);
  assert.ok(chunks.every((c) => c.data instanceof Float64Array));
  assert.deepEqual(unpackLog(chunks), log);
  assert.deepEqual(unpackLog(packLog([])), []);
});

test("from a game: missed cards first, then wrong touches, then the slowest", async () => {
  const { picks } = await import("../../static/js/trainer/from-play.js");
  const records = [
    { poem: 5, t: 900, wrong: [], after_kimariji: 400 },
    { poem: 9, t: null, wrong: [], after_kimariji: null },
    { poem: 2, t: 2000, wrong: [], after_kimariji: 1500 },
    { poem: 7, t: 800, wrong: [31], after_kimariji: 300 },
    { poem: 4, t: 1200, wrong: [], after_kimariji: 700 },
  ];
  assert.deepEqual(picks(records, 4), [9, 7, 2, 4]);
  assert.deepEqual(picks([], 4), []);
});

test("storage that fails (full) falls back to memory, keeps what it had and says so", async () => {
  const { resilient } = await import("../../static/js/trainer/store.js");
  const saved = new Map([[3, newRecord(3)]]);
  const full = {
    persistent: true,
    reason: null,
    load: async () => new Map(saved),
    loadLog: async () => [[1, 3, 3, 900, 0]],
    save: async () => { throw new DOMException("quota", "QuotaExceededError"); },
    replace: async () => { throw new Error("unused"); },
    clear: async () => { throw new Error("unused"); },
  };
  const reasons = [];
  const store = resilient(full, (reason) => reasons.push(reason));
  await store.save(newRecord(8), [2, 8, 1, 1200, 0]);
  assert.deepEqual(reasons, ["full"]);
  assert.equal(store.persistent, false);
  assert.deepEqual([...(await store.load()).keys()].sort(), [3, 8]);
  assert.deepEqual(await store.loadLog(), [[1, 3, 3, 900, 0], [2, 8, 1, 1200, 0]]);
});
