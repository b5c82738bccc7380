#!/usr/bin/env node
// Copy the self-hosted runtime (Pyodide + PyScript core) from node_modules into static/vendor/,
// then generate the service worker (./sw.js) and dist/ (the site as deployed) via site.mjs.
// The page then loads everything from its own origin: no CDN at runtime.
//
// Usage: node scripts/build.mjs [--check-snapshot]   (from any directory; paths are relative to
// the repo root; --check-snapshot makes the memory snapshot twice and fails if they differ)

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const modules = join(root, "node_modules");
const vendor = join(root, "static", "vendor");

// Pyodide: only what a browser needs to boot the interpreter with the standard library.
const PYODIDE_FILES = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
];

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

function version(pkg) {
  const file = join(modules, pkg, "package.json");
  if (!existsSync(file)) fail(`${pkg} is not installed; run "npm ci" first`);
  return JSON.parse(readFileSync(file, "utf8")).version;
}

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const copied = [];
function copy(src, dest) {
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(src, dest);
  copied.push({ path: relative(root, dest), size: statSync(dest).size });
}

const pyodideVersion = version("pyodide");
const pyscriptVersion = version("@pyscript/core");

rmSync(vendor, { recursive: true, force: true });

for (const name of PYODIDE_FILES) {
  const src = join(modules, "pyodide", name);
  if (!existsSync(src)) fail(`missing ${relative(root, src)}`);
  copy(src, join(vendor, "pyodide", name));
}

// PyScript core: the whole dist (core.js, core.css and the lazily imported chunks it
// references by relative URL, e.g. toml-*.js, zip-*.js, codemirror-*.js), minus source maps.
const dist = join(modules, "@pyscript", "core", "dist");
if (!existsSync(join(dist, "core.js"))) fail(`missing ${relative(root, dist)}/core.js`);
for (const src of walk(dist)) {
  if (src.endsWith(".map")) continue;
  copy(src, join(vendor, "pyscript", relative(dist, src)));
}
for (const needed of ["core.js", "core.css"]) {
  if (!existsSync(join(vendor, "pyscript", needed))) fail(`pyscript dist lacks ${needed}`);
}

// --- offline + embedding (issue 4) ---------------------------------------------------------
// fake-indexeddb: an in-memory IndexedDB that static/start.js installs before PyScript loads
// when the browser refuses IndexedDB (a cross-site iframe with third-party storage blocked).
const fakeIdb = join(modules, "fake-indexeddb", "build", "esm");
if (!existsSync(join(fakeIdb, "index.js"))) fail(`missing ${relative(root, fakeIdb)}/index.js`);
for (const src of walk(fakeIdb)) {
  if (src.endsWith(".js")) copy(src, join(vendor, "fake-indexeddb", relative(fakeIdb, src)));
}
// --- end offline + embedding -----------------------------------------------------------------

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`build: pyodide ${pyodideVersion}, @pyscript/core ${pyscriptVersion}`);
for (const { path, size } of copied) console.log(`  ${path.padEnd(60)} ${kb(size).padStart(12)}`);
const total = copied.reduce((sum, f) => sum + f.size, 0);
console.log(`build: copied ${copied.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB -> ${relative(root, vendor)}/`);

// --- languages (issue 17) --------------------------------------------------------------------
// The gettext catalogs locale/*.po compiled by Babel (scripts/i18n.py compile) into
// static/vendor/i18n/: <lang>.mo.gz (gzip; the page loads the one of its language), boot.json (the texts of
// static/boot-error.js) and manifest.<lang>.webmanifest. Python: $PYTHON, else .venv's, else python3.
{
  const { execFileSync } = await import("node:child_process");
  const venv = join(root, ".venv", "bin", "python");
  const python = process.env.PYTHON || (existsSync(venv) ? venv : "python3");
  try {
    execFileSync(python, [join(root, "scripts", "i18n.py"), "compile"], { stdio: "inherit" });
  } catch {
    fail(`"${python} scripts/i18n.py compile" failed; install Babel: ${python} -m pip install -r requirements-build.txt`);
  }
}
// --- end languages ---------------------------------------------------------------------------

// static/vendor/limits.js: the board limits for static/boot.js, from sos/rules.py (limits.mjs).
const { buildLimits } = await import("./limits.mjs");
buildLimits();

// The page's Python: sources and bytecode (static/vendor/sos-python.zip; see bytecode.mjs).
const { buildBytecode } = await import("./bytecode.mjs");
await buildBytecode();

// The page's trimmed standard library (static/vendor/pyodide/sos-stdlib.zip; see stdlib.mjs),
// before the snapshot, which is made with it.
const { buildStdlib } = await import("./stdlib.mjs");
await buildStdlib();

// Memory snapshot of the page's interpreter + the pyodide-snap.mjs wrapper (see snapshot.mjs).
// In a process of its own: a Pyodide loaded earlier in this one (the bytecode's) changes the
// memory image, and the snapshot is to depend on its inputs only.
const { execFileSync } = await import("node:child_process");
const snapshotArgs = process.argv.includes("--check-snapshot") ? ["--check"] : [];
execFileSync(process.execPath, [join(root, "scripts", "snapshot.mjs"), ...snapshotArgs], { stdio: "inherit" });

// Service worker (./sw.js, precache with a revision per file) and dist/ for GitHub Pages.
const { buildSite } = await import("./site.mjs");
await buildSite();
