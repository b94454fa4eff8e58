// The trainer page's one script (static/dist/trainer.js) is built from its modules by
// tools/build-trainer.mjs: fails when a module changed and the bundle was not rebuilt.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { buildOpenEarly, buildTrainer, OPEN_OUT, OUT, ROOT } from "../../tools/build-trainer.mjs";

test("static/dist/trainer.js is current (else: npm run build-trainer)", async () => {
  assert.ok(existsSync(join(ROOT, "node_modules", "esbuild")), "esbuild is missing: npm ci");
  const built = await buildTrainer();
  assert.ok(readFileSync(OUT, "utf8") === built, "static/dist/trainer.js is stale: run npm run build-trainer and commit it");
});

test("static/dist/trainer-open.js is current, stands alone and only starts opening IndexedDB", async () => {
  const built = await buildOpenEarly();
  assert.ok(readFileSync(OPEN_OUT, "utf8") === built, "static/dist/trainer-open.js is stale: run npm run build-trainer and commit it");
  assert.doesNotMatch(built, /\bimport\b|\bexport\b/);
  assert.match(built, /^\(\(\)=>\{.*\}\)\(\);$/m, "a classic script: its names stay inside one function");
  assert.match(built, /globalThis\.trainerOpening=/);
  assert.ok(built.length < 1000, `the head's script is ${built.length} bytes: keep it to the open`);
});

test("the bundle holds the whole page: no import is left to fetch", () => {
  const text = readFileSync(OUT, "utf8");
  assert.doesNotMatch(text, /\bimport\s*[{*\w][^;]*?from\s*["']/);
  assert.doesNotMatch(text, /\bimport\s*\(/);
  assert.match(text, /trainer-ready/);
  assert.match(text, /\[data-telemetry-switch\]/, "telemetry.js is in it: the page's switch is bound from here");
});
