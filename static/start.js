// Starts PyScript, first making sure it can open IndexedDB.
//
// PyScript 0.7 opens IndexedDB while it boots: core-*.js creates an IDBMap("@pyscript.fs")
// when the module loads, and the Pyodide engine awaits an IDBMapSync (its package cache,
// keyed by the Pyodide URL) before it loads the interpreter. When the browser refuses
// IndexedDB -- a cross-site iframe with third-party storage blocked: indexedDB.open() fires
// "error" with "UnknownError: The user denied permission to access the database" --
// idb-map's onerror handler re-dispatches the event it is handling ("InvalidStateError: The
// event is already being dispatched"), the awaited promise rejects, and Python never starts.
// No PyScript option skips that store (packages_cache = "never" still opens it).
//
// So: probe IndexedDB; if it is refused, install fake-indexeddb (an in-memory IndexedDB,
// self-hosted in static/vendor/) as this document's indexedDB, then load PyScript. The game
// keeps nothing in IndexedDB, so an in-memory one loses nothing.

// The game accepts no messages from other windows (docs/embedding.md, docs/security.md). The runtime, though,
// listens for "message" on window: Pyodide schedules work by posting strings to its own
// window ("_si" for emscripten's setImmediate, "sched$<random>" for its own), and a host page
// posting "_si" into the frame made Pyodide call an empty queue (an uncaught TypeError, found
// by tests/e2e/test_fuzz_browser.py). This capturing listener is registered before the runtime
// loads, so it runs first: it drops every message that this window did not post to itself.
addEventListener(
  "message",
  (event) => {
    if (event.source !== window) event.stopImmediatePropagation();
  },
  true,
);

// The probe database is kept (empty, version 1): creating a database costs ~100 ms in
// Chromium, opening an existing one a few ms, so only the first visit pays for the probe.
const PROBE = "sos-indexeddb-probe";

function indexedDBWorks() {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open(PROBE);
      request.onsuccess = () => {
        request.result.close();
        resolve(true);
      };
      request.onerror = (event) => {
        event.preventDefault(); // handled here: not an uncaught error
        resolve(false);
      };
      request.onblocked = () => resolve(false);
    } catch {
      resolve(false); // no indexedDB at all, or a SecurityError thrown at once
    }
  });
}

async function useMemoryIndexedDB() {
  const fake = await import("./vendor/fake-indexeddb/index.js");
  const names = [
    "IDBCursor", "IDBCursorWithValue", "IDBDatabase", "IDBFactory", "IDBIndex", "IDBKeyRange",
    "IDBObjectStore", "IDBOpenDBRequest", "IDBRequest", "IDBTransaction", "IDBVersionChangeEvent",
  ];
  const descriptor = (value) => ({ value, configurable: true, writable: true, enumerable: false });
  Object.defineProperty(globalThis, "indexedDB", descriptor(fake.indexedDB));
  for (const name of names) Object.defineProperty(globalThis, name, descriptor(fake[name]));
  document.documentElement.dataset.storage = "memory";
  console.info("SOS: IndexedDB is not available here (third-party storage blocked?); using an in-memory one");
}

// Nothing starts before static/boot.js says so (window.sosBoot.started): at once on most pages;
// in an embed without start=now, at the reader's first tap -- until then this page fetches no
// runtime file, opens no IndexedDB and starts no Python (docs/embedding.md). Without boot.js
// (a file that failed to load), the runtime starts at once.
await (window.sosBoot?.started ?? Promise.resolve());

// The interpreter's module first: importing it starts loading Python (the runtime, the standard
// library, Python's own start) while the probe below, PyScript, pyscript.toml and PyScript's
// IndexedDB cache are under way (scripts/pyodide-snap.mjs); PyScript then gets that interpreter.
// Errors are PyScript's to report, when it imports the same module.
// After the first frame, so that the board drawn by static/boot.js is painted first.
requestAnimationFrame(() => setTimeout(() => import("./vendor/pyodide/pyodide-snap.mjs").catch(() => {})));

if (!(await indexedDBWorks())) await useMemoryIndexedDB();
await import("./vendor/pyscript/core.js");
