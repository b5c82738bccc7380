// Makes the memory snapshot of the page's interpreter on the device, in a Web Worker, from the
// files the service worker has cached (docs/performance.md, "The memory snapshot").
// Template: the build (scripts/snapshot.mjs) writes it next to pyodide.mjs as
// static/vendor/pyodide/snapshot-worker.mjs with the key, the files and the tools filled in.
//
// pyodide-snap.mjs starts it once the game is ready, the service worker controls the page (so
// every fetch below is answered from its cache: nothing is downloaded) and the page is idle, when
// no snapshot of this build is stored. It boots the same Pyodide with the same trimmed standard
// library, puts the page's Python where PyScript puts it (the [files] zip unpacked, static/app.py
// written), imports what the page imports at start (scripts/snapshot_modules.py,
// prepare_snapshot), and stores the interpreter's memory in
// Cache Storage ("sos-snapshot", one entry: this build's), with its length and SHA-256, which the
// page checks before a restore. The interpreter that made a snapshot is not used again: the
// worker ends.
//
// Messages to the page: {ok: true, bytes, seconds} or {ok: false, error}.

import { loadPyodide } from "./pyodide.mjs";

// JSPI hidden from Pyodide as in the page (pyodide-snap.mjs, docs/crash.md), unless the page kept
// it (the worker is then named "jspi"): the snapshot is made in the mode the page restores it in.
const jspi = self.name === "jspi";
if (!jspi) for (const name of ["Suspending", "promising", "Suspender"]) Reflect.deleteProperty(WebAssembly, name);

const CACHE = "sos-snapshot"; // also in pyodide-snap.mjs
const KEY = new URL(`./sos-snapshot-__KEY__${jspi ? "-jspi" : ""}.bin`, import.meta.url).href;
const HOME = "/home/pyodide"; // Pyodide's default home = the cwd PyScript writes [files] into
const FILES = __FILES__; // pyscript.toml's [files] (the zip of the page's Python) and static/app.py
const TOOLS = __TOOLS__; // scripts/snapshot_modules.py
const site = new URL("../../../", import.meta.url); // from static/vendor/pyodide/

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

async function make() {
  const started = performance.now();
  const sources = await Promise.all(
    FILES.map(async (file) => {
      const response = await fetch(new URL(file, site));
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      return [file, new Uint8Array(await response.arrayBuffer())];
    }),
  );
  const pyodide = await loadPyodide({
    indexURL: new URL(".", import.meta.url).href,
    stdLibURL: new URL("./sos-stdlib.zip", import.meta.url).href,
    _makeSnapshot: true,
    stdout: () => {},
    stderr: () => {},
  });
  for (const [file, bytes] of sources) {
    if (file.endsWith(".zip")) {
      // as PyScript unpacks `"<x>.zip" = "./*"`: into the working folder
      pyodide.unpackArchive(bytes, "zip", { extractDir: HOME });
      continue;
    }
    const dest = `${HOME}/${file}`;
    pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    pyodide.FS.writeFile(dest, bytes);
  }
  pyodide.FS.mkdirTree("/snapshot-tools");
  pyodide.FS.writeFile("/snapshot-tools/snapshot_modules.py", TOOLS);
  const sys = pyodide.pyimport("sys");
  sys.path.insert(0, "/snapshot-tools");
  const tools = pyodide.pyimport("snapshot_modules");
  tools.prepare_snapshot(HOME).destroy();
  for (const proxy of [tools, sys]) proxy.destroy();
  const bytes = pyodide.makeMemorySnapshot();
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) if (request.url !== KEY) await cache.delete(request);
  await cache.put(
    KEY,
    new Response(bytes, {
      headers: {
        "Content-Type": "application/octet-stream",
        "X-SOS-Length": String(bytes.byteLength),
        "X-SOS-SHA256": digest,
      },
    }),
  );
  return { ok: true, bytes: bytes.byteLength, seconds: (performance.now() - started) / 1000 };
}

make().then(
  (result) => postMessage(result),
  (error) => postMessage({ ok: false, error: String(error) }),
);
