#!/usr/bin/env node
// The page's Python in one file: static/vendor/sos-python.zip, the only entry of pyscript.toml's
// [files] ("./static/vendor/sos-python.zip" = "./*": PyScript unpacks it into the interpreter's
// working folder before the page's script runs). It holds
//
// - every sos/**/*.py source, at its package path (sos/state.py, ...);
// - their bytecode, sos/**/__pycache__/<module>.cpython-314.pyc, compiled once by the very
//   Pyodide the page runs (node_modules/pyodide, copied to static/vendor/): compiling sos/ from
//   source was most of the time the page spent importing at start-up (≈ 0.17 s of ≈ 0.21 s for
//   the engine modules in Pyodide-in-Node);
// - the bytecode of PyScript's own Python package, pyscript/__pycache__/*.pyc: PyScript writes
//   pyscript/*.py into the file system at every start, from a copy of its sources bundled in its
//   core chunk, and imports it before the page's script runs, so Python compiled those modules
//   on every start (11 of its 14: those `import pyscript` reaches at module level). Their sources are read from the package's artifact
//   (src/stdlib/pyscript.js), and the build fails if the shipped core chunks do not hold these
//   very texts.
//
// One file instead of one per module: a start fetched and wrote ~70 files one by one (and
// preloaded each: scripts/pyodide-snap.mjs), which cost a warm start at 4x CPU about 0.8 s
// (benchmarks/RESULTS.md, 2026-12-03, "one zip").
//
// The pycs are *checked-hash* (PEP 552): Python uses one only if the hash of the .py beside it
// matches, so a pyc that does not belong to its source is ignored, never run. The zip is
// deterministic (sorted entries, fixed timestamps), so an unchanged build keeps the service
// worker's revision.
//
// Usage: node scripts/bytecode.mjs   (build.mjs calls buildBytecode())

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PYTHON_ZIP = join(root, "static", "vendor", "sos-python.zip");

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

/** PyScript's Python package as its core writes it at start: [["pyscript/__init__.py", text],
 * ...], sorted. Throws if the shipped core chunks (the dist/ that build.mjs copies) do not hold
 * these very texts. */
export async function pyscriptSources() {
  const dist = join(root, "node_modules", "@pyscript", "core", "dist");
  const artifact = join(dist, "..", "src", "stdlib", "pyscript.js");
  const { default: tree } = await import(artifact);
  const chunks = readdirSync(dist)
    .filter((name) => name.endsWith(".js"))
    .map((name) => readFileSync(join(dist, name), "utf8"));
  const out = [];
  for (const [name, text] of Object.entries(tree.pyscript)) {
    if (typeof text !== "string") throw new Error(`bytecode: pyscript/${name} is a folder; not expected`);
    if (!chunks.some((chunk) => chunk.includes(JSON.stringify(text))))
      throw new Error(`bytecode: PyScript's core does not write ${relative(root, artifact)}'s pyscript/${name}`);
    out.push([`pyscript/${name}`, text]);
  }
  return out.sort(([a], [b]) => (a < b ? -1 : 1));
}

export async function buildBytecode(out = PYTHON_ZIP) {
  const pyodide = await loadPyodide();
  const ours = sources();
  for (const file of ours) {
    pyodide.FS.mkdirTree(`/src/${file.slice(0, file.lastIndexOf("/"))}`);
    pyodide.FS.writeFile(`/src/${file}`, readFileSync(join(root, file)));
  }
  const theirs = await pyscriptSources();
  pyodide.FS.mkdirTree("/src/pyscript");
  for (const [file, text] of theirs) pyodide.FS.writeFile(`/src/${file}`, text);
  // The Python half is scripts/bytecode_zip.py, imported (not evaluated as a string).
  pyodide.FS.writeFile("/src/bytecode_zip.py", readFileSync(join(root, "scripts", "bytecode_zip.py")));
  pyodide.pyimport("sys").path.insert(0, "/src");
  const tools = pyodide.pyimport("bytecode_zip");
  // PyScript's modules that its start imports (`import pyscript`): the others (its `web`, `media`,
  // `fs`) are compiled if a page ever imports them, and cost a start nothing.
  const started = tools.reached(pyodide.toPy(theirs.map(([file]) => file)), "/src", "pyscript/__init__.py").toJs();
  const version = tools.build(pyodide.toPy(ours), pyodide.toPy(started), "/src", "/python.zip");
  const bytes = pyodide.FS.readFile("/python.zip");
  writeFileSync(out, bytes);
  console.log(
    `bytecode: ${ours.length} modules (sources and pycs) and ${started.length} of PyScript's ${theirs.length} (pycs) by Python ` +
      `${version} -> ${relative(root, out)} (${(bytes.length / 1024).toFixed(1)} KiB)`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildBytecode();
