#!/usr/bin/env node
// Precompiled bytecode of the game's Python modules for the browser's Python (Pyodide 3.14).
//
// Compiling sos/**/*.py from source is most of the time the page spends importing at start-up
// (≈ 0.17 s of ≈ 0.21 s for the engine modules in Pyodide-in-Node). So the build compiles them
// once, with the very Pyodide the page runs (node_modules/pyodide, copied to static/vendor/),
// into static/vendor/sos-bytecode.zip: sos/__pycache__/<module>.cpython-314.pyc entries that
// PyScript unpacks next to the sources (pyscript.toml: "./static/vendor/sos-bytecode.zip" =
// "./*"). They are *checked-hash* pycs (PEP 552): Python uses one only if the hash of the .py
// beside it matches, so a stale zip (a source edited after the build) is ignored, never run.
// The zip is deterministic (sorted entries, fixed timestamps), so an unchanged build keeps the
// service worker's revision.
//
// Usage: node scripts/bytecode.mjs   (build.mjs calls buildBytecode())

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BYTECODE_ZIP = join(root, "static", "vendor", "sos-bytecode.zip");

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") out.push(...walk(path));
    else if (entry.isFile() && entry.name.endsWith(".py")) out.push(path);
  }
  return out;
}

/** Every sos/**\/*.py, as sorted repository paths ("sos/state.py", "sos/web/main.py", ...). */
export function sources() {
  return walk(join(root, "sos"))
    .map((path) => relative(root, path).split(sep).join("/"))
    .sort();
}

export async function buildBytecode(out = BYTECODE_ZIP) {
  const pyodide = await loadPyodide();
  const files = sources();
  for (const file of files) {
    pyodide.FS.mkdirTree(`/src/${file.slice(0, file.lastIndexOf("/"))}`);
    pyodide.FS.writeFile(`/src/${file}`, readFileSync(join(root, file)));
  }
  // The Python half is scripts/bytecode_zip.py, imported (not evaluated as a string).
  pyodide.FS.writeFile("/src/bytecode_zip.py", readFileSync(join(root, "scripts", "bytecode_zip.py")));
  pyodide.pyimport("sys").path.insert(0, "/src");
  const version = pyodide.pyimport("bytecode_zip").build(pyodide.toPy(files), "/src", "/bytecode.zip");
  const bytes = pyodide.FS.readFile("/bytecode.zip");
  writeFileSync(out, bytes);
  console.log(
    `bytecode: ${files.length} modules compiled by Python ${version} -> ${relative(root, out)} ` +
      `(${(bytes.length / 1024).toFixed(1)} KiB)`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildBytecode();
