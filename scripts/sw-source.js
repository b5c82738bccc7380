// The service worker's source (scripts/site.mjs bundles it with the Workbox runtime into sw.js at
// the site root; docs/performance.md, "Offline: the service worker").
//
// - The precache (self.__WB_MANIFEST: what a start needs, each file with its content revision and
//   its SRI integrity) is filled at install. Each file is requested with `cache: "no-cache"`: the
//   browser revalidates the copy the page has just loaded (If-None-Match / If-Modified-Since) and
//   a 304 costs no body, so nothing the page fetched is downloaded again. Workbox's own request
//   (`cache: "reload"`) would skip the HTTP cache and fetch every byte a second time. The
//   integrity check makes sure that what is stored under a revision is that revision's content:
//   a stale copy (a CDN's, or an HTTP cache entry of an older deploy) fails the install, which
//   the browser retries at the next visit, rather than being kept. index.html is requested under
//   the URL the page was opened with (index.html?size=6, or the bare folder), which is the one
//   the HTTP cache knows.
// - The lazy files (self.__SOS_LAZY: another language's web app manifest, the 4x4
//   opening book, icons, PyScript's editor and terminal, the in-memory IndexedDB) are cached the
//   first time they are used, under their revision, with the same revalidation and integrity;
//   the page sends the ones it loaded before the worker controlled it (Workbox's CACHE_URLS
//   message, static/sw-register.js). Entries of older revisions are deleted when a new version
//   takes over.
// - The memory snapshot is not a file of the site: the page makes it on the device
//   (static/vendor/pyodide/snapshot-worker.mjs) and keeps it in a cache of its own.

import { cacheNames, clientsClaim, setCacheNameDetails } from "workbox-core";
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";

setCacheNameDetails({ prefix: "sos" });

// An update waits until the page says so (the "New version available" offer posts SKIP_WAITING),
// so that one page never mixes the files of two versions.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});
// First visit: take control at once, so that the page is cached for offline use.
clientsClaim();

const INDEX = new URL("index.html", self.location.href);

/** The URL the open page was loaded from, if it is index.html (with its query, or the bare
 * folder): the HTTP cache holds it under that URL, not under index.html's. */
async function pageURL() {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const page of pages) {
    const url = new URL(page.url);
    const folder = INDEX.pathname.slice(0, -"index.html".length);
    if (url.origin === INDEX.origin && (url.pathname === INDEX.pathname || url.pathname === folder)) {
      url.hash = "";
      return url.href;
    }
  }
  return null;
}

/** Requests the file from the network revalidating the HTTP cache (a 304 reuses its body). */
const revalidate = {
  requestWillFetch: async ({ request }) => {
    const url = request.url === INDEX.href ? ((await pageURL()) ?? request.url) : request.url;
    return new Request(url, { cache: "no-cache", credentials: "same-origin", integrity: request.integrity });
  },
};
addPlugins([revalidate]);

// --- the page's own copies (static/sw-register.js, "a private window pays once") ---------------
// On a first visit the page puts its downloads of the runtime's big files into HAND_OVER. The
// install takes a file from there instead of the network when its SHA-384 is the integrity of
// the precache entry (Workbox's install calls the global fetch with that Request), so a private
// window, whose memory HTTP cache keeps no 9.6 MB file, does not download it a second time.
const HAND_OVER = "sos-hand-over";
const networkFetch = self.fetch.bind(self);

/** The integrity string (`sha384-<base64>`) of a response's body. */
async function integrityOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-384", await response.arrayBuffer()));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha384-${btoa(binary)}`;
}

/** The page's copy of `request`'s file when it is the content the integrity names, else null. */
async function handedOver(request) {
  if (request.method !== "GET" || !request.integrity.startsWith("sha384-")) return null;
  if (!(await caches.has(HAND_OVER))) return null;
  const url = new URL(request.url);
  const copy = await (await caches.open(HAND_OVER)).match(url.origin + url.pathname);
  if (!copy) return null;
  if ((await integrityOf(copy.clone())) !== request.integrity) return null;
  return copy;
}

self.fetch = async (input, init) => {
  const request = new Request(input, init);
  try {
    const copy = await handedOver(request);
    if (copy) return copy;
  } catch {
    // no usable copy: the network
  }
  return networkFetch(request);
};
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.delete(HAND_OVER));
});
// index.html?size=8&embed=1 is index.html: every query parameter is the app's own.
precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/./], directoryIndex: "index.html" });
cleanupOutdatedCaches();

// --- lazy files -------------------------------------------------------------------------------
const LAZY_ENTRIES = self.__SOS_LAZY; // filled in by scripts/site.mjs
const LAZY = new Map(
  LAZY_ENTRIES.map(({ url, revision, integrity }) => [new URL(url, self.location.href).href, { revision, integrity }]),
);
const LAZY_CACHE = `${cacheNames.prefix}-lazy-${cacheNames.suffix}`.replace(/-$/, "");
const plain = (url) => {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
};
const lazyKey = (url) => `${url}?__WB_REVISION__=${LAZY.get(url).revision}`;

const lazyFiles = {
  // one entry per revision, whatever the query string of the request
  cacheKeyWillBeUsed: async ({ request }) => lazyKey(plain(request.url)),
  // the plain URL, revalidating the HTTP cache, checked against the revision's content
  requestWillFetch: async ({ request }) => {
    const url = plain(request.url);
    return new Request(url, { cache: "no-cache", credentials: "same-origin", integrity: LAZY.get(url).integrity });
  },
  cacheWillUpdate: async ({ response }) => (response && response.status === 200 ? response : null),
};
registerRoute(
  ({ url, request }) => request.method === "GET" && LAZY.has(url.origin + url.pathname),
  new CacheFirst({ cacheName: LAZY_CACHE, plugins: [lazyFiles] }),
);

// A new version takes over: the lazy entries of other revisions go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(LAZY_CACHE);
      const keep = new Set([...LAZY.keys()].map(lazyKey));
      for (const request of await cache.keys()) if (!keep.has(request.url)) await cache.delete(request);
    })(),
  );
});
