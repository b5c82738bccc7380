#!/usr/bin/env node
// The memory snapshot of the page's interpreter: what the build writes for it
// (docs/performance.md, "The memory snapshot").
//
// A returning player's start restores Python from a snapshot instead of initialising it (the bulk
// of a warm start): Python is ready several times sooner. The snapshot is made on the player's
// device (scripts/snapshot-worker.mjs, in a Web Worker, from the files the service worker has
// cached), never downloaded: 30 MiB of memory that would cost a visit 6-7 MB gzip. It carries the
// runtime's build id and is refused by any other build.
//
// Output, in static/vendor/pyodide/, each with the snapshot's key (snapshotKey(): a hash of all it
// is made of) filled in:
//   pyodide-snap.mjs      the `interpreter` of pyscript.toml: scripts/pyodide-snap.mjs
//   snapshot-worker.mjs   scripts/snapshot-worker.mjs with the files to fetch and
//                         scripts/snapshot_modules.py (the Python half) inlined
//
// `--check` (build.mjs --check-snapshot, used by the Pages workflow) also makes the snapshot here,
// in Node, with the pinned Pyodide, twice, and fails if it cannot be made or is not reproducible:
// Node leaves traces in Python's state that a page would not have; they are reset before the
// snapshot is taken (scripts/snapshot_modules.py, prepare_snapshot()): sys.executable,
// sys.argv, os.environ (Node's LANG, "_"), a second "" in sys.path (Pyodide inserts one at every
// start). Reproducible: made with Node's clocks stopped, PYTHONHASHSEED=0 and `random` seeded
// (see deterministic()), in a process of its own (build.mjs runs it so).
//
// Usage: node scripts/snapshot.mjs [--check]   (build.mjs calls buildSnapshot())

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";
import { STDLIB_ZIP } from "./stdlib.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "static", "vendor", "pyodide");
const HOME = "/home/pyodide"; // Pyodide's default home = the cwd PyScript writes [files] into

function walk(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") found.push(...walk(path));
    else if (entry.isFile() && entry.name.endsWith(".py")) found.push(path);
  }
  return found.sort();
}

/**
 * Run `make` with the clocks of this process stopped: the snapshot is an image of memory, and
 * every time stamp that lands in it (file times cached by the import system, for one) would
 * make each build different. Python's hash secret is fixed with PYTHONHASHSEED=0 (then removed
 * from os.environ) and `random` is seeded with 0 (the page reseeds it after a restore,
 * sos/web/snapshot.py); the hash secret is then the same for every player, which only matters
 * against hash flooding, not here.
 */
async function deterministic(make) {
  const saved = { now: Date.now, perf: performance.now };
  Date.now = () => 1767225600000; // 2026-01-01T00:00:00Z
  performance.now = () => 0;
  try {
    return await make();
  } finally {
    Date.now = saved.now;
    performance.now = saved.perf;
  }
}

/** The raw snapshot bytes and the modules it holds. */
export function makeSnapshot() {
  return deterministic(makeSnapshotNow);
}

async function makeSnapshotNow() {
  // With the page's trimmed standard library (scripts/stdlib.mjs): the snapshot keeps the zip's
  // directory as zipimport read it, so the page must restore it with the very same zip.
  const pyodide = await loadPyodide({ _makeSnapshot: true, stdLibURL: STDLIB_ZIP, env: { PYTHONHASHSEED: "0" } });
  // The sources, where PyScript will unpack them in the page (the [files] zip's sos/x.py ->
  // cwd/sos/x.py), so that the modules' __file__ is the path they have there.
  for (const path of [...walk(join(root, "sos")), join(root, "static", "app.py")]) {
    const dest = `${HOME}/${relative(root, path).split(sep).join("/")}`;
    pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    pyodide.FS.writeFile(dest, readFileSync(path));
  }
  // The Python half is scripts/snapshot_modules.py, imported (not evaluated as a string).
  pyodide.FS.mkdirTree("/snapshot-tools");
  pyodide.FS.writeFile("/snapshot-tools/snapshot_modules.py", readFileSync(join(root, "scripts", "snapshot_modules.py")));
  const sys = pyodide.pyimport("sys");
  sys.path.insert(0, "/snapshot-tools");
  const tools = pyodide.pyimport("snapshot_modules");
  const loadedProxy = tools.prepare_snapshot(HOME);
  const modules = loadedProxy.toJs();
  for (const proxy of [loadedProxy, tools, sys]) proxy.destroy();
  const bytes = pyodide.makeMemorySnapshot();
  return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), modules };
}

/** The sources of pyscript.toml's [files] ("./sos/state.py" -> "sos/state.py"), in order. */
export function configFiles() {
  const files = [];
  let inFiles = false;
  for (const line of readFileSync(join(root, "pyscript.toml"), "utf8").split("\n")) {
    const table = line.match(/^\s*\[([^\]]*)\]/);
    if (table) inFiles = table[1].trim() === "files";
    const entry = inFiles && line.match(/^\s*"([^"]+)"\s*=/);
    if (entry) files.push(entry[1].replace(/^\.\//, ""));
  }
  if (!files.length) throw new Error("snapshot: no [files] in pyscript.toml");
  return files;
}

/** The page's Python sources that a snapshot holds (repository-relative): sos/**\/*.py (the
 * [files] zip holds them, scripts/bytecode.mjs) and the entry. */
export function snapshotSources() {
  return [...walk(join(root, "sos")).map((path) => relative(root, path).split(sep).join("/")), "static/app.py"];
}

/** What the worker that makes the snapshot on the device fetches (site-relative): the [files] of
 * pyscript.toml (the zip of the page's Python) and the entry, static/app.py. */
export function workerFiles() {
  return [...configFiles(), "static/app.py"];
}

/** What the snapshot is made of, as one hash: the runtime, the standard library zip, the page's
 * sources and the tools that make it. A change of any gives a new key, so a snapshot of another
 * build is never restored (the page makes a new one). */
export function snapshotKey() {
  const hash = createHash("sha256");
  const inputs = [
    ...["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "sos-stdlib.zip"].map((name) => join(out, name)),
    ...snapshotSources().map((file) => join(root, file)),
    ...["snapshot_modules.py", "snapshot-worker.mjs"].map((name) => join(root, "scripts", name)),
  ];
  for (const path of inputs) hash.update(readFileSync(path));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Write pyodide-snap.mjs (the page's interpreter) and snapshot-worker.mjs (makes the snapshot on
 * the device) into static/vendor/pyodide/, keyed by snapshotKey(). With `check`, also make the
 * snapshot here, in Node, twice, and fail if it cannot be made or the bytes differ (the page's
 * start modules must stay snapshottable); it is not shipped.
 */
export async function buildSnapshot({ check = false } = {}) {
  const started = Date.now();
  const key = snapshotKey();
  for (const old of readdirSync(out)) if (old.startsWith("sos-snapshot-")) rmSync(join(out, old));
  const fill = (template) =>
    readFileSync(join(root, "scripts", template), "utf8")
      .replaceAll("__KEY__", key)
      .replace("__FILES__", JSON.stringify(template === "snapshot-worker.mjs" ? workerFiles() : configFiles()))
      .replace("__TOOLS__", JSON.stringify(readFileSync(join(root, "scripts", "snapshot_modules.py"), "utf8")));
  writeFileSync(join(out, "pyodide-snap.mjs"), fill("pyodide-snap.mjs"));
  writeFileSync(join(out, "snapshot-worker.mjs"), fill("snapshot-worker.mjs"));
  let made = "";
  if (check) {
    const { bytes, modules } = await makeSnapshot();
    const sha = createHash("sha256").update(bytes).digest("hex");
    const sha2 = createHash("sha256").update((await makeSnapshot()).bytes).digest("hex");
    if (sha2 !== sha) throw new Error(`snapshot: not reproducible (${sha.slice(0, 12)} then ${sha2.slice(0, 12)})`);
    made = `; checked: ${modules.length} modules pre-imported, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, made twice, same bytes`;
  }
  console.log(`snapshot: key ${key} -> ${relative(root, out)}/{pyodide-snap,snapshot-worker}.mjs${made} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { key };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildSnapshot({ check: process.argv.includes("--check") });
}
