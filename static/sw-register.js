// Registers the service worker (../sw.js: the site root, so its scope covers index.html, also
// under a GitHub Pages sub-path) once the game is ready, so it never slows the boot.
// When a new version is installed and waiting, shows "New version available -- Reload";
// the waiting worker takes over only then, and the page reloads, so one page never mixes the
// files of two versions. The text of the offer is translated by Python (data-i18n).

const html = document.documentElement;

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

// The service worker caches the lazy files of the site (another language's catalog, the puzzle
// set, ...) when they are used (scripts/sw-source.js). Those this page loaded before the worker
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
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
  } catch (error) {
    console.warn("SOS: no offline support here:", error);
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
