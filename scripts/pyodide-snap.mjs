// The page's Pyodide (pyscript.toml `interpreter`): Pyodide's own loadPyodide, started from the
// build's memory snapshot when one is at hand (docs/performance.md, "The memory snapshot").
// Template: the build (scripts/snapshot.mjs) copies it next to pyodide.mjs with the snapshot's
// name and size filled in. PyScript imports this module, takes {loadPyodide, version} and derives indexURL from its
// folder, so it must live in static/vendor/pyodide/.
//
// - Never on a first visit's critical path: the snapshot is used only when the service worker
//   controls the page and has it in its cache (it precaches it after data-ready).
// - The standard library is the build's trimmed one (sos-stdlib.zip, scripts/stdlib.mjs), on
//   every start: the snapshot was made with it (a restored zipimport keeps its directory).
// - Started early: static/start.js imports this module before PyScript, which starts the
//   interpreter at once (see `early` below).
// - Safe: a missing, truncated or corrupt file (gzip checks its CRC-32 and length), a wrong size,
//   or a snapshot Pyodide refuses (another build id) gives one console warning and a normal
//   start. static/app.py then checks the pre-imported modules against the served sources.

import { loadPyodide as loadPyodideOnly, version } from "./pyodide.mjs";

export { version };

const SNAPSHOT = new URL("./__SNAPSHOT_FILE__", import.meta.url).href;
const SIZE = __SNAPSHOT_SIZE__;
const STDLIB = new URL("./sos-stdlib.zip", import.meta.url).href;

async function cachedSnapshot() {
  if (!navigator.serviceWorker?.controller || !globalThis.caches || !globalThis.DecompressionStream) return null;
  const cached = await caches.match(SNAPSHOT, { ignoreSearch: true });
  if (!cached) throw new Error(`${SNAPSHOT} is not in the service worker's cache`); // fetch nothing
  const response = await fetch(SNAPSHOT); // through the service worker: its own version
  if (!response.ok) throw new Error(`${SNAPSHOT}: HTTP ${response.status}`);
  const raw = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  if (raw.byteLength !== SIZE) throw new Error(`${SNAPSHOT}: ${raw.byteLength} bytes, expected ${SIZE}`);
  return new Uint8Array(raw);
}

async function load(options) {
  let snapshot = null;
  try {
    snapshot = await cachedSnapshot();
  } catch (error) {
    console.warn("SOS: memory snapshot not usable, starting Python normally:", String(error));
  }
  if (snapshot) {
    try {
      const pyodide = await loadPyodideOnly({ ...options, _loadSnapshot: snapshot });
      document.documentElement.dataset.snapshot = "restored";
      return pyodide;
    } catch (error) {
      console.warn("SOS: memory snapshot refused, starting Python normally:", String(error));
    }
  }
  return loadPyodideOnly(options);
}

// The interpreter starts loading as soon as this module runs (static/start.js imports it before
// PyScript), not when PyScript asks for it: PyScript first opens its IndexedDB package cache,
// reads pyscript.toml, etc. (measured by benchmarks/bench_boot.py's "start path"). The options
// PyScript passes are indexURL (this folder), stdout and stderr; what Python prints before
// PyScript's handlers are known is kept and handed to them.
//
// PyScript fetches the [files] of pyscript.toml only once the interpreter is up; they are
// preloaded now (FILES: their URLs relative to the site root, filled in by the build), so that
// its fetch() finds them ready.
const FILES = __FILES__;
for (const file of FILES) {
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.crossOrigin = "anonymous";
  link.href = new URL(`../../../${file}`, import.meta.url).href; // from static/vendor/pyodide/
  document.head.appendChild(link);
}
const sinks = { stdout: null, stderr: null, held: [] };
const sink = (kind) => (text) => (sinks[kind] ? sinks[kind](text) : sinks.held.push([kind, text]));
performance.mark("sos:interpreter-start");
const early = load({
  indexURL: new URL(".", import.meta.url).href,
  stdLibURL: STDLIB,
  stdout: sink("stdout"),
  stderr: sink("stderr"),
});
early.catch(() => {}); // reported when PyScript asks for the interpreter (below)

export async function loadPyodide(given = {}) {
  performance.mark("sos:load-pyodide");
  const { indexURL, stdout, stderr, ...other } = given;
  if (Object.keys(other).length) {
    // PyScript asks for more than the early start gave (e.g. packages): a start of its own
    console.warn("SOS: interpreter options", Object.keys(other), "so a second start");
    return load({ ...given, stdLibURL: STDLIB });
  }
  sinks.stdout = stdout ?? console.log;
  sinks.stderr = stderr ?? console.warn;
  for (const [kind, text] of sinks.held.splice(0)) sinks[kind](text);
  return early;
}
