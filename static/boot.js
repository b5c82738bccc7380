// Paints the board skeleton before Python starts, sized from the ?size= parameter
// (the Python app validates it again and reports bad values). No game logic here.
// The limits are Python's (sos/rules.py), written into vendor/limits.js by the build.
import { DEFAULT_SIZE, MAX_APP_SIZE, MIN_APP_SIZE } from "./vendor/limits.js";

// First visit (no service worker yet): start the 8 MB runtime download now rather than at the
// end of the chain core.js -> pyscript.toml -> pyodide.mjs -> pyodide.asm.mjs. Not when the
// service worker serves the page: Chromium then compiles the wasm from its code cache, which a
// preloaded response bypasses (warm boot measured ~2 s slower with the preload;
// docs/performance.md).
if (!navigator.serviceWorker?.controller) {
  const preload = document.createElement("link");
  preload.rel = "preload";
  preload.as = "fetch";
  preload.crossOrigin = "anonymous";
  preload.href = new URL("./vendor/pyodide/pyodide.asm.wasm", import.meta.url).href;
  document.head.appendChild(preload);
}
const params = new URLSearchParams(location.search);
const raw = Number(params.get("size"));
const size = Number.isInteger(raw) && raw >= MIN_APP_SIZE && raw <= MAX_APP_SIZE ? raw : DEFAULT_SIZE;
const board = document.getElementById("board");
if (board && !board.hasChildNodes()) {
  board.style.setProperty("--rows", String(size));
  board.style.setProperty("--cols", String(size));
  for (let r = 0; r < size; r++) {
    const row = document.createElement("div");
    row.className = "board-row";
    row.setAttribute("role", "row");
    for (let c = 0; c < size; c++) {
      const cell = document.createElement("div");
      cell.className = "cell skeleton";
      cell.setAttribute("role", "gridcell");
      row.appendChild(cell);
    }
    board.appendChild(row);
  }
}
if (params.get("embed") === "1") document.documentElement.classList.add("embed");
// The rest of the runtime, requested at once rather than at the end of the chain core.js ->
// pyscript.toml -> pyodide.mjs -> pyodide.asm.mjs -> stdlib/lock file, but only after the first
// frame: as <link>s in index.html (modulepreload compiles pyodide.asm.mjs, 1.2 MB) they delayed
// the first paint by ~70 ms (cold, median of 9; docs/performance.md, "Start-up"). as="fetch" crossorigin
// matches Pyodide's plain fetch(), so the preloaded responses are used.
const RUNTIME = [
  ["modulepreload", "./vendor/pyscript/core.js"],
  ["modulepreload", "./vendor/pyodide/pyodide-snap.mjs"],
  ["modulepreload", "./vendor/pyodide/pyodide.mjs"],
  ["modulepreload", "./vendor/pyodide/pyodide.asm.mjs"],
  ["preload", "./vendor/pyodide/sos-stdlib.zip"],
  ["preload", "./vendor/pyodide/pyodide-lock.json"],
];
function preloadRuntime() {
  for (const [rel, path] of RUNTIME) {
    const link = document.createElement("link");
    link.rel = rel;
    if (rel === "preload") {
      link.as = "fetch";
      link.crossOrigin = "anonymous";
    }
    link.href = new URL(path, import.meta.url).href;
    document.head.appendChild(link);
  }
}
// For benchmarks/bench_boot.py: the frame that shows the skeleton board starts now.
requestAnimationFrame(() => {
  performance.mark("sos:board");
  setTimeout(preloadRuntime);
});
// Embed view: "Open the full game" = this URL without embed=1 (works even if Python fails).
const openFull = document.getElementById("open-full");
if (openFull) {
  const full = new URL(location.href);
  full.searchParams.delete("embed");
  openFull.href = full.href;
}
