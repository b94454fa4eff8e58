// Build the trainer page's scripts from its ES modules with esbuild: static/dist/trainer.js
// (static/js/trainer/page.js and what it imports) and static/dist/trainer-open.js (open-early.js:
// the head's few hundred bytes that start opening IndexedDB). Run `npm run build-trainer` after
// changing any of them, and commit the result. tests/js/trainer-bundle.test.mjs builds them
// again in memory and fails when a committed file is not current.
//
// Why a bundle: the page's ~20 modules, even all preloaded, cost the first visit one request
// each to the server and one module record each to the browser; one minified file is one
// request and one compile (issue 28: interactive < 1 s on a phone-class profile).
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = join(ROOT, "static", "dist", "trainer.js");
export const OPEN_OUT = join(ROOT, "static", "dist", "trainer-open.js");
const ENTRY = join(ROOT, "static", "js", "trainer", "page.js");
const OPEN_ENTRY = join(ROOT, "static", "js", "trainer", "open-early.js");

/** The page's bundle, built in memory (the same every time for the same sources). */
export const buildTrainer = () => build(ENTRY);
/** The head's IndexedDB opener, built the same way. */
export const buildOpenEarly = () => build(OPEN_ENTRY);

async function build(entry) {
  const classic = entry === OPEN_ENTRY; // a classic script (the head's, parser-blocking): no module scope, so an IIFE
  const version = JSON.parse(readFileSync(join(ROOT, "node_modules", "esbuild", "package.json"), "utf8")).version;
  const esbuild = await import("esbuild"); // a dev tool: npm ci installs it
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: classic ? "iife" : "esm",
    minify: true,
    target: "es2022",
    legalComments: "eof", // ts-fsrs' and idb's licence notes stay in the file
    write: false,
    logLevel: "silent",
  });
  const source = `static/js/trainer/${basename(entry)}`;
  const banner = entry === ENTRY
    ? `// Built by tools/build-trainer.mjs (esbuild ${version}) from ${source}: do not edit, run npm run build-trainer.
// Includes ts-fsrs (MIT) and idb (ISC): their licences are static/vendor/ts-fsrs/LICENSE and static/vendor/idb/LICENSE.\n`
    : `// Built by tools/build-trainer.mjs (esbuild ${version}) from ${source}: do not edit, run npm run build-trainer.\n`;
  return banner + result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [out, make] of [[OUT, buildTrainer], [OPEN_OUT, buildOpenEarly]]) {
    const text = await make();
    writeFileSync(out, text);
    console.log(`static/dist/${basename(out)}: ${text.length} bytes`);
  }
}
