// Copy the self-hosted typeface from the npm package into static/ (run: npm run vendor-fonts).
//
// Shippori Mincho (SIL Open Font License 1.1) comes from @fontsource/shippori-mincho on the
// npm registry; the copy under static/fonts/ is committed so the site never loads a font from
// elsewhere and needs nothing but npm to refresh it. Only the woff2 files of weight 400 are
// kept: every current browser reads woff2, and headings use the same weight. The CSS keeps
// fontsource's unicode-range per subset, so a page downloads only the subsets of the
// characters it shows.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "node_modules", "@fontsource", "shippori-mincho");
const out = join(root, "static", "fonts", "shippori-mincho");
const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "files"), { recursive: true });
const css = readFileSync(join(pkg, "400.css"), "utf8")
  .replace(/, url\([^)]*\.woff\) format\('woff'\)/g, "");
writeFileSync(join(out, "shippori-mincho-400.css"),
  `/* Shippori Mincho ${version} from @fontsource/shippori-mincho (OFL-1.1, see LICENSE); written by tools/vendor-fonts.mjs */\n${css}`);
let n = 0;
for (const name of readdirSync(join(pkg, "files"))) {
  if (name.endsWith("-400-normal.woff2")) { copyFileSync(join(pkg, "files", name), join(out, "files", name)); n += 1; }
}
copyFileSync(join(pkg, "LICENSE"), join(out, "LICENSE"));
console.log(`Shippori Mincho ${version}: ${n} woff2 files in static/fonts/shippori-mincho/`);
