// Build the trainer page's one script, static/dist/trainer.js, from its ES modules
// (static/js/trainer/page.js and what it imports) with esbuild: run `npm run build-trainer`
// after changing any of them, and commit the result. tests/js/trainer-bundle.test.mjs
// builds it again in memory and fails when the committed file is not current.
//
// Why a bundle: the page's ~20 modules, even all preloaded, cost the first visit one request
// each to the server and one module record each to the browser; one minified file is one
// request and one compile (issue 28: interactive < 1 s on a phone-class profile).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = join(ROOT, "static", "dist", "trainer.js");
const ENTRY = join(ROOT, "static", "js", "trainer", "page.js");

/** The bundle's text, built in memory (the same every time for the same sources). */
export async function buildTrainer() {
  const version = JSON.parse(readFileSync(join(ROOT, "node_modules", "esbuild", "package.json"), "utf8")).version;
  const esbuild = await import("esbuild"); // a dev tool: npm ci installs it
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    minify: true,
    target: "es2022",
    legalComments: "eof", // ts-fsrs' and idb's licence notes stay in the file
    write: false,
    logLevel: "silent",
  });
  const banner = `// Built by tools/build-trainer.mjs (esbuild ${version}) from static/js/trainer/page.js: do not edit, run npm run build-trainer.
// Includes ts-fsrs (MIT) and idb (ISC): their licences are static/vendor/ts-fsrs/LICENSE and static/vendor/idb/LICENSE.\n`;
  return banner + result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await buildTrainer();
  writeFileSync(OUT, text);
  console.log(`static/dist/trainer.js: ${text.length} bytes`);
}
