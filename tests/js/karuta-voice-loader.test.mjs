// node --test: the clip loader asks again for a clip that failed, after a backoff, so one
// bad answer does not mute that clip for the page's life (issue 43).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ClipLoader, retryAfterMs } from "../../static/js/karuta/voice-loader.js";

function fakes(answers) {
  const asked = [];
  let t = 0;
  const fetch = async (url) => {
    asked.push(url);
    const status = answers.shift() ?? 200;
    return { ok: status === 200, status, arrayBuffer: async () => new ArrayBuffer(8) };
  };
  const context = { decodeAudioData: async () => ({ duration: 0.2 }) };
  const loader = new ClipLoader(context, { fetch, now: () => t });
  return { loader, asked, at: (ms) => { t = ms; } };
}

const clip = { id: "c1", url: "/static/karuta/voice/c1.mp3" };
const settle = () => new Promise((done) => setImmediate(done));

test("a clip answered 404 once is fetched again after the backoff, and then plays", async () => {
  const { loader, asked, at } = fakes([404]);
  await assert.rejects(loader.load(clip));
  await settle();
  assert.deepEqual([...loader.failed], ["c1"]);
  at(retryAfterMs(1) - 1);
  await assert.rejects(loader.load(clip)); // within the backoff: the same refusal, no request
  assert.equal(asked.length, 1);
  at(retryAfterMs(1));
  assert.equal((await loader.load(clip)).duration, 0.2);
  await settle();
  assert.equal(asked.length, 2);
  assert.deepEqual([...loader.failed], []);
  await loader.load(clip); // kept once decoded
  assert.equal(asked.length, 2);
});

test("the backoff doubles from 0.5 s up to 8 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map(retryAfterMs), [500, 1000, 2000, 4000, 8000, 8000, 8000]);
});

test("settled: a clip's load counts once decoded or failed, not while it is on its way", async () => {
  const { loader, at } = fakes([404]);
  const other = { id: "c2", url: "/static/karuta/voice/c2.mp3" };
  assert.equal(loader.settled(clip), false); // never asked for
  const failing = loader.load(clip);
  assert.equal(loader.settled(clip), false); // on its way
  await assert.rejects(failing);
  await settle();
  assert.equal(loader.settled(clip), true); // failed: nothing to wait for (ready-gate.js)
  at(retryAfterMs(1));
  const again = loader.load(clip);
  assert.equal(loader.settled(clip), true); // still counted failed until the retry answers
  await again;
  await settle();
  assert.equal(loader.settled(clip), true);
  await loader.load(other);
  await settle();
  assert.equal(loader.settled(other), true);
});
