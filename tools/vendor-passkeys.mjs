// Copy @simplewebauthn/browser's browser build from its npm package into static/vendor/
// (run: npm run vendor-passkeys); the copy is committed, with its licence.
//
// @simplewebauthn/browser (MIT, maintained by Matthew Miller): the browser half of the
// WebAuthn ceremonies (options JSON in, credential JSON out) that py_webauthn checks on the
// server. Its UMD bundle is one file with no dependencies: loaded as a classic script, it
// sets globalThis.SimpleWebAuthnBrowser for static/js/players/passkeys.js.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "node_modules", "@simplewebauthn", "browser");
const out = join(root, "static", "vendor", "simplewebauthn");
const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
copyFileSync(join(pkg, "dist", "bundle", "index.umd.min.js"), join(out, "index.umd.min.js"));
const licence = readdirSync(pkg).find((name) => name.startsWith("LICENSE")); // a Markdown file
copyFileSync(join(pkg, licence), join(out, "LICENSE"));
console.log(`@simplewebauthn/browser ${version}: static/vendor/simplewebauthn/index.umd.min.js`);
