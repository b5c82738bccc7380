// Registers the service worker (../sw.js: the site root, so its scope covers index.html, also
// under a GitHub Pages sub-path) once the game is ready, so it never slows the boot.
// When a new version is installed and waiting, shows "New version available -- Reload";
// the waiting worker takes over only then, and the page reloads, so one page never mixes the
// files of two versions. The text of the offer is translated by Python (data-i18n).

const html = document.documentElement;

// --- a private window pays once -------------------------------------------------------------
// The precache (scripts/sw-source.js) revalidates what the page has just downloaded: a 304, no
// body, as long as the HTTP cache kept the file. A private window's HTTP cache lives in memory
// and keeps no entry over an eighth of its size (Chromium: 50 MB, so 6.25 MB): the 9.6 MB
// pyodide.asm.wasm of a server that does not compress was downloaded a second time. So, on a
// visit the worker does not control yet, the page puts its own copies of the runtime's big
// files into the cache HAND_OVER as they arrive; the worker's install takes a copy from there
// when its SHA-384 is the precache entry's integrity (else it downloads the file), and deletes
// the cache when it activates. docs/performance.md, "A private window".
const HAND_OVER = "sos-hand-over";
const HANDED = /\.(wasm|zip)$/; // pyodide.asm.wasm, sos-stdlib.zip, sos-python.zip
const handed = [];

function handOver() {
  if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller) return;
  if (!("caches" in self) || typeof self.fetch !== "function") return;
  const pageFetch = self.fetch;
  self.fetch = function fetch(input, init) {
    const answer = pageFetch.call(this, input, init);
    try {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      const booting = html.dataset.ready !== "1"; // what the start downloads, nothing later
      if (booting && method === "GET" && url.origin === location.origin && HANDED.test(url.pathname)) {
        // attached before the caller's own then(): the copy is taken before the body is read
        const key = url.origin + url.pathname;
        handed.push(
          answer
            .then((response) => {
              if (response.status !== 200) return undefined;
              const copy = response.clone();
              return caches.open(HAND_OVER).then((cache) => cache.put(key, copy));
            })
            .catch(() => undefined), // a failed copy only costs the download it would save
        );
      }
    } catch {
      // an argument fetch() itself rejects: nothing to hand over
    }
    return answer;
  };
}

handOver();

function whenReady() {
  return new Promise((resolve) => {
    if (html.dataset.ready === "1") return resolve();
    const observer = new MutationObserver(() => {
      if (html.dataset.ready === "1") {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(html, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

function offerReload(worker) {
  // No controller yet means this is the first install: nothing old to replace.
  if (!navigator.serviceWorker.controller) return;
  const box = document.getElementById("update");
  const button = document.getElementById("update-reload");
  if (!box || !button) return;
  box.hidden = false;
  button.disabled = false;
  button.onclick = () => {
    button.disabled = true;
    accepted = true;
    worker.postMessage({ type: "SKIP_WAITING" }); // handled by workbox's generated sw.js
  };
}

let accepted = false;

// The service worker caches the lazy files of the site (another language's web app manifest,
// the 4x4 opening book, ...) when they are used (scripts/sw-source.js). Those this page loaded before the worker
// controlled it are sent to it with Workbox's CACHE_URLS message, so that they are there offline
// too; they come from the HTTP cache (a revalidation, no body). It ignores URLs of no route.
async function cacheWhatThisPageLoaded() {
  const registration = await navigator.serviceWorker.ready;
  const urls = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((url) => new URL(url).origin === location.origin);
  registration.active?.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: urls } });
}

async function register() {
  // Absent in some contexts, e.g. a third-party iframe with storage blocked: play without it.
  if (!("serviceWorker" in navigator)) return;
  await whenReady();
  await Promise.all(handed); // the copies are in HAND_OVER before the worker installs
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
  } catch (error) {
    console.warn("SOS: no offline support here:", error);
    caches.delete(HAND_OVER).catch(() => {});
    return;
  }
  // A browser or an automation that blocks service workers may resolve with nothing.
  if (!registration) {
    caches.delete(HAND_OVER).catch(() => {});
    return;
  }
  html.dataset.sw = "registered";
  cacheWhatThisPageLoaded();
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) location.reload(); // the new version took over: load it
  });
  if (registration.waiting) offerReload(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offerReload(worker);
    });
  });
  // A long-lived tab looks for a new deploy when it comes back to the foreground.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

register();
