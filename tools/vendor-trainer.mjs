// Copy the trainer's two browser libraries from their npm packages into static/vendor/
// (run: npm run vendor-trainer), each with its licence; the copies are committed.
//
// ts-fsrs (MIT): FSRS, the scheduler Anki uses, maintained by the open-spaced-repetition
// group; one ES module with no dependencies (dist/index.mjs).
// idb (ISC): Jake Archibald's promise wrapper over IndexedDB; one ES module (build/index.js).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARIES = [
  { name: "ts-fsrs", file: "dist/index.mjs", out: "index.mjs", licence: "LICENSE" },
  { name: "idb", file: "build/index.js", out: "index.js", licence: "LICENSE" },
];

for (const lib of LIBRARIES) {
  const pkg = join(root, "node_modules", lib.name);
  const out = join(root, "static", "vendor", lib.name);
  const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const code = readFileSync(join(pkg, lib.file), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  writeFileSync(join(out, lib.out), `/* ${lib.name} ${version} (npm), ${lib.file}; see LICENSE. Copied by tools/vendor-trainer.mjs */\n${code}`);
  copyFileSync(join(pkg, lib.licence), join(out, "LICENSE"));
  console.log(`${lib.name} ${version}: static/vendor/${lib.name}/${lib.out}`);
}
