#!/usr/bin/env node
// Memory snapshot of the page's interpreter, made at build time (docs/performance.md,
// "The memory snapshot").
//
// A returning player's start restores Python from this snapshot instead of initialising it
// (the bulk of a warm start): Python is ready several times sooner. Made here, in Node, with the
// very Pyodide the page runs (node_modules/pyodide = static/vendor/pyodide/; the snapshot carries
// the runtime's build id and is refused by any other build), with the page's start-up modules
// pre-imported (scripts/snapshot_modules.py derives them from the sources; modules imported after
// a restore import ~2.5x slower than on a normal start).
//
// Output, in static/vendor/pyodide/:
//   sos-snapshot-<sha256[:12] of the raw snapshot>.bin.gz   gzip -9 (30 MiB raw -> ~6 MB)
//   pyodide-snap.mjs   the `interpreter` of pyscript.toml: scripts/pyodide-snap.mjs with the
//                      snapshot's file name and raw size filled in
// The snapshot is fetched only when the service worker has already precached it (never on a
// first visit); the worker precaches it after data-ready like every other file.
//
// Node leaves traces in Python's state that a page would not have; they are reset before the
// snapshot is taken (scripts/snapshot_modules.py, prepare_snapshot()): sys.executable,
// sys.argv, os.environ (Node's LANG, "_"), a second "" in sys.path (Pyodide inserts one at every
// start). Reproducible: made with Node's clocks stopped, PYTHONHASHSEED=0 and `random` seeded
// (see deterministic()), the same inputs give the same bytes, in a process of its own (build.mjs
// runs it so); checked by making it twice (`node scripts/snapshot.mjs --check`, `node scripts/build.mjs --check-snapshot`).
//
// Usage: node scripts/snapshot.mjs [--check]   (build.mjs calls buildSnapshot())

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
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
  // The sources, where PyScript will write them in the page ([files] "sos/x.py" -> cwd/sos/x.py),
  // so that the modules' __file__ is the path the page serves them at.
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

export async function buildSnapshot({ check = false } = {}) {
  const started = Date.now();
  const { bytes, modules } = await makeSnapshot();
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (check) {
    const again = (await makeSnapshot()).bytes;
    const sha2 = createHash("sha256").update(again).digest("hex");
    if (sha2 !== sha) throw new Error(`snapshot: not reproducible (${sha.slice(0, 12)} then ${sha2.slice(0, 12)})`);
  }
  const name = `sos-snapshot-${sha.slice(0, 12)}.bin.gz`;
  for (const old of readdirSync(out)) if (old.startsWith("sos-snapshot-")) rmSync(join(out, old));
  const gz = gzipSync(bytes, { level: 9 });
  writeFileSync(join(out, name), gz);
  const wrapper = readFileSync(join(root, "scripts", "pyodide-snap.mjs"), "utf8")
    .replace("__SNAPSHOT_FILE__", name)
    .replace("__SNAPSHOT_SIZE__", String(bytes.length))
    .replace("__FILES__", JSON.stringify(configFiles()));
  writeFileSync(join(out, "pyodide-snap.mjs"), wrapper);
  const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `snapshot: ${modules.length} modules pre-imported, ${mib(bytes.length)} raw, ${mib(gz.length)} gzip ` +
      `-> ${relative(root, join(out, name))}${check ? " (reproducible: made twice, same bytes)" : ""} ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { name, modules };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildSnapshot({ check: process.argv.includes("--check") });
}
