// The page's Pyodide (pyscript.toml `interpreter`): Pyodide's own loadPyodide, started from a
// memory snapshot of the page's interpreter when one is at hand (docs/performance.md, "The memory
// snapshot"). Template: the build (scripts/snapshot.mjs) copies it next to pyodide.mjs with the
// snapshot's key and the [files] filled in. PyScript imports this module, takes {loadPyodide,
// version} and derives indexURL from its folder, so it must live in static/vendor/pyodide/.
//
// - The snapshot is made on the device, never downloaded: once the game is ready and the service
//   worker controls the page, snapshot-worker.mjs boots the cached runtime in a Web Worker in idle
//   time and stores the interpreter's memory in Cache Storage (see makeSnapshotWhenIdle below).
//   It is keyed by a hash of everything it is made of (the runtime, the standard library zip,
//   the page's Python sources), so another build never restores it.
// - The standard library is the build's trimmed one (sos-stdlib.zip, scripts/stdlib.mjs), on
//   every start: the snapshot was made with it (a restored zipimport keeps its directory).
// - Started early: static/start.js imports this module before PyScript, which starts the
//   interpreter at once (see `early` below).
// - Safe: a snapshot of the wrong length or SHA-256 (truncated, corrupt), or one Pyodide refuses
//   (another build id), gives one console warning and a normal start, and a new one is made.
//   When the service worker controls the page and no snapshot is stored, one warning says so.
//   static/app.py then checks the pre-imported modules against the served sources.

import { loadPyodide as loadPyodideOnly, version } from "./pyodide.mjs";

export { version };

// JSPI (WebAssembly stack switching: WebAssembly.Suspending/promising, which Chromium ships on) is
// hidden from Pyodide, which then starts as it does in WebKit and older browsers: Chromium's
// renderer crashed (SIGSEGV on a V8-allocated stack) in CI while Pyodide used it, and the page
// needs none of it (docs/crash.md: the crashes, the runs and what hiding costs). Before Pyodide
// loads: pyodide.asm.mjs, loaded by loadPyodide below, looks once. Where a property cannot be
// deleted (the crash benchmark keeps JSPI that way, to compare), Pyodide uses it and so does the
// worker that makes the snapshot, under a key of its own.
for (const name of ["Suspending", "promising", "Suspender"]) Reflect.deleteProperty(WebAssembly, name);
const jspi = "Suspending" in WebAssembly || "Suspender" in WebAssembly;

const CACHE = "sos-snapshot"; // also in snapshot-worker.mjs
const KEY = new URL(`./sos-snapshot-__KEY__${jspi ? "-jspi" : ""}.bin`, import.meta.url).href;
const STDLIB = new URL("./sos-stdlib.zip", import.meta.url).href;
const html = document.documentElement;

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

/** The stored snapshot's response, null when none is stored; throws when it is unusable. */
async function storedSnapshot() {
  if (!globalThis.caches || !globalThis.crypto?.subtle) return null;
  let cache;
  try {
    cache = await caches.open(CACHE);
  } catch {
    return null; // Cache Storage refused (e.g. a frame with storage blocked)
  }
  const response = await cache.match(KEY);
  if (!response && navigator.serviceWorker?.controller) throw new Error("none stored yet; one is made when the page is idle");
  return response ?? null; // none on a first visit: nothing to say
}

/** The snapshot's bytes, checked against the length and SHA-256 it was stored with. */
async function checkedBytes(response) {
  const raw = await response.arrayBuffer();
  const length = Number(response.headers.get("X-SOS-Length"));
  if (raw.byteLength !== length) throw new Error(`${raw.byteLength} bytes stored, ${length} made`);
  if (hex(await crypto.subtle.digest("SHA-256", raw)) !== response.headers.get("X-SOS-SHA256"))
    throw new Error("its SHA-256 differs from the one it was made with");
  return new Uint8Array(raw);
}

let restored = false;
let unusable = false; // a stored snapshot was found but not restored

async function load(options) {
  let stored = null;
  try {
    stored = await storedSnapshot();
  } catch (error) {
    unusable = true;
    console.warn("SOS: memory snapshot not usable, starting Python normally:", String(error));
  }
  if (stored) {
    // Read and checked while Pyodide loads its runtime (it awaits the bytes only then).
    let bytesError = null;
    const bytes = checkedBytes(stored).catch((error) => {
      bytesError = error;
      throw error;
    });
    bytes.catch(() => {}); // reported below, once
    try {
      const pyodide = await loadPyodideOnly({ ...options, _loadSnapshot: bytes });
      html.dataset.snapshot = "restored";
      restored = true;
      return pyodide;
    } catch (error) {
      unusable = true;
      if (bytesError) console.warn("SOS: memory snapshot not usable, starting Python normally:", String(bytesError));
      else console.warn("SOS: memory snapshot refused, starting Python normally:", String(error));
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
// its fetch() finds them ready. Not in WebKit (Safari, every iOS browser): it never gives a
// preloaded response to fetch(), so the file would come twice (the same test as static/boot.js's
// fetchPreloadsUsed; docs/browsers.md, "Preloads"). Nor on a returning visit (the service worker
// controls the page): the file then comes from its cache at once when asked for, while a preload
// waits unused until the interpreter is up -- on a slow phone long after the window's load event,
// and Chromium warns of a preload "not used within a few seconds" (tests/e2e/test_offline.py).
const FILES = __FILES__;
const ua = navigator.userAgent;
const fetchPreloadsUsed = !(/AppleWebKit\//.test(ua) && !/Chrome\/|Chromium\//.test(ua));
const preloadFiles = fetchPreloadsUsed && !navigator.serviceWorker?.controller;
for (const file of preloadFiles ? FILES : []) {
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

// --- making the snapshot on the device -----------------------------------------------------
// When this start did not restore one: once the game is ready (data-ready) and the service worker
// controls the page (then the worker's fetches are answered from its cache: no byte is
// downloaded), in idle time, one tab at a time (Web Locks). It costs the device one start of
// Python in a worker, off the page's main thread; nothing is fetched, so Save-Data does not stop
// it. <html data-snapshot> tells how it went: "making", "made" or "failed".

function whenReady() {
  return new Promise((resolve) => {
    if (html.dataset.ready === "1") return resolve();
    const observer = new MutationObserver(() => {
      if (html.dataset.ready !== "1") return;
      observer.disconnect();
      resolve();
    });
    observer.observe(html, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

function whenControlled() {
  return new Promise((resolve) => {
    if (navigator.serviceWorker.controller) return resolve();
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true });
  });
}

const idle = () => new Promise((resolve) => (globalThis.requestIdleCallback ?? setTimeout)(resolve, { timeout: 5000 }));

async function makeSnapshotWhenIdle() {
  if (!("serviceWorker" in navigator) || !globalThis.caches || !globalThis.Worker || !navigator.locks) return;
  await early.catch(() => {});
  if (restored) return;
  await whenReady();
  await whenControlled();
  await idle();
  await navigator.locks.request("sos-snapshot", { ifAvailable: true }, async (lock) => {
    if (!lock) return; // another tab is making it
    // made by another tab meanwhile (a stored one this start found unusable is replaced)
    if (!unusable && (await (await caches.open(CACHE)).match(KEY))) return;
    html.dataset.snapshot = "making";
    performance.mark("sos:snapshot-making");
    const result = await new Promise((resolve) => {
      const url = new URL("./snapshot-worker.mjs", import.meta.url);
      const worker = new Worker(url, { type: "module", name: jspi ? "jspi" : "snapshot" });
      worker.onmessage = (event) => {
        worker.terminate();
        resolve(event.data);
      };
      worker.onerror = (event) => {
        worker.terminate();
        resolve({ ok: false, error: event.message || "the worker did not start" });
      };
    });
    performance.mark("sos:snapshot-made");
    html.dataset.snapshot = result.ok ? "made" : "failed";
    if (!result.ok) console.warn("SOS: the memory snapshot could not be made:", result.error);
  });
}
makeSnapshotWhenIdle().catch((error) => console.warn("SOS: the memory snapshot could not be made:", String(error)));
