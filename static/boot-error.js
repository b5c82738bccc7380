// Never an endless spinner: if the game does not start, say so, in the page's language, with
// "Try again" and the technical detail folded away ([data-testid=boot-error]).
//
// Loaded first (index.html), before PyScript, so it sees every way a start can fail:
// - an uncaught error or rejected promise before the page is ready (a runtime file missing or
//   corrupt, a sos/ module missing from the server, the network gone, Python raising at import);
// - PyScript's own error banner (e.g. an invalid pyscript.toml), which is hidden and replaced;
// - no `data-ready` START_TIMEOUT_MS after the runtime started (a start that hangs): at once
//   on most pages; in an embed that waits for its reader's first tap (static/boot.js), from
//   that tap (the "sos:start" event), so an untouched frame never reports a slow start.
// Python is not running yet (or never will): the English texts live here, the other languages'
// come from the gettext catalogs (built by scripts/i18n.py compile into static/vendor/i18n/
// boot.json) and are fetched only when a start fails. The language comes from the URL (`lang`),
// the saved preferences, or the browser, as in sos/web/main.py.

const START_TIMEOUT_MS = 30_000;

const ENGLISH = {
  title: "The game could not start.",
  file: "A file of the game could not be loaded or is damaged. The site may be being updated.",
  network: "The game could not be downloaded. Check your internet connection.",
  portal: "The network answered with a page that is not the game (a Wi-Fi sign-in page?). Sign in or check the connection, then try again.",
  clock: "This device's date is far outside what the game can run with. Set the date and time right, then try again.",
  slow: "Starting takes much longer than it should.",
  runtime: "The game engine stopped with an error.",
  retry: "Try again",
  detail: "Technical details",
};
const BOOT_TEXTS = new URL("./vendor/i18n/boot.json", import.meta.url);

const html = document.documentElement;

/** The page's language tags in order of precedence (URL, saved preference, browser), as base
 * codes ("de-AT" -> "de"); static/boot.js draws the page in the first one it has texts for. */
export function languageCandidates() {
  const tags = [new URLSearchParams(location.search).get("lang")];
  try {
    // The preferences the app saves (sos/app/app.py Prefs), then the first version's save.
    tags.push(JSON.parse(localStorage.getItem("sos-prefs") ?? "null")?.lang);
    tags.push(JSON.parse(localStorage.getItem("sos-game") ?? "null")?.prefs?.lang);
  } catch {
    // blocked storage or a damaged save: the app reports that itself
  }
  tags.push(...(navigator.languages ?? [navigator.language]));
  return tags.map((tag) => String(tag ?? "").split("-")[0].toLowerCase()).filter(Boolean);
}

/** The texts in the page's language: English at once, any other from boot.json (English when
 * that cannot be had, e.g. offline without the service worker). */
async function texts() {
  let table = null;
  for (const lang of languageCandidates()) {
    if (lang === "en") return ENGLISH;
    if (table === null) {
      try {
        table = await (await fetch(BOOT_TEXTS)).json();
      } catch {
        return ENGLISH;
      }
    }
    if (lang in table) return { ...table[lang], lang };
  }
  return ENGLISH;
}

/** The kind of failure, from its technical text: "network", "file" or "runtime". */
function kindOf(detail) {
  if (!navigator.onLine || /ERR_INTERNET_DISCONNECTED|NetworkError|Failed to fetch(?! dynamically)|network error/i.test(detail))
    return "network";
  // a module from another origin: pyscript.toml was not read (PyScript falls back to a CDN)
  const foreign = [...detail.matchAll(/https?:\/\/[^\s'"]+/g)].some((m) => !m[0].startsWith(location.origin));
  if (foreign || /\b404\b|not found|Failed to (load|fetch)|could not load|Unable to fetch|CompileError|LinkError|TOML/i.test(detail))
    return "file";
  return "runtime";
}

// What the runtime logged before it failed (Pyodide reports a missing standard library on the
// console, then exits with a bare "Program terminated"): kept for the detail and the kind.
const logged = [];
// Logged lines that mean the start is over: the wasm does not compile, emscripten aborted.
const FATAL_LOG = /CompileError|LinkError|Aborted\(/;
for (const level of ["error", "warn"]) {
  const original = console[level];
  console[level] = function (...args) {
    original.apply(this, args);
    if (html.dataset.ready === "1") return;
    const line = args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" ");
    if (logged.length < 30) logged.push(line);
    if (FATAL_LOG.test(line)) onError(line);
  };
}

let shown = null;
let timer = 0;

// The browser may say it is online while nothing reaches the site (server down) or while
// something else answers (a captive portal's sign-in page). So a start that failed on a file
// asks the network first: the site's sw.js, fetched past every cache (the service worker does
// not precache itself), is our own file ("ok": the file itself is damaged or missing), another
// page ("portal"), or nothing at all ("down": a network failure, whatever navigator.onLine says).
// The message is shown at once and corrected when the answer comes; no answer in time says
// nothing either way ("unknown": the first reading stays).
const PROBE_URL = new URL("../sw.js", import.meta.url);
const PROBE_MARK = "workbox";
const PROBE_TIMEOUT_MS = 20_000;
let probing = null;

async function probe() {
  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), PROBE_TIMEOUT_MS);
  try {
    const url = new URL(PROBE_URL);
    url.searchParams.set("probe", String(Date.now()));
    const response = await fetch(url, { cache: "no-store", redirect: "follow", signal: abort.signal });
    const body = response.ok ? await response.text() : "";
    return body.includes(PROBE_MARK) ? "ok" : "portal";
  } catch {
    return abort.signal.aborted ? "unknown" : "down";
  } finally {
    clearTimeout(timeout);
  }
}

// Python in the browser keeps time as 64-bit nanoseconds since 1970: it cannot start with a
// clock before 1677-09-21 or after 2262-04-11 (an OverflowError while it boots).
const CLOCK_LIMIT_MS = 9_223_372_036_854;

function show(kind, detail) {
  if (html.dataset.ready === "1") return; // started after all: nothing to report
  if (Math.abs(Date.now()) >= CLOCK_LIMIT_MS && kind !== "slow") {
    showNow("clock", `clock: ${new Date().toISOString()}\n${detail}`);
    return;
  }
  const first = !shown || shown.slow;
  showNow(kind, detail);
  if ((kind === "file" || kind === "network") && first && !probing) {
    probing = probe().then((network) => {
      if (!shown || html.dataset.ready === "1") return;
      shown.pre.textContent += `\n(network check: ${network})`;
      const settled = network === "down" ? "network" : network === "portal" ? "portal" : null;
      if (settled && settled !== shown.kind) shown.repaint(settled);
    });
  }
}

function showNow(kind, detail) {
  if (html.dataset.ready === "1") return;
  if (shown?.slow && kind !== "slow") {
    shown.box.remove(); // a slow start that then failed: say why
    shown = null;
  }
  if (shown) {
    // keep the first message, add later details (the first error usually explains the rest)
    if (detail && !shown.pre.textContent.includes(detail)) shown.pre.textContent += `\n${detail}`;
    return;
  }
  clearTimeout(timer);
  const box = document.createElement("div");
  box.className = "boot-error";
  box.dataset.testid = "boot-error";
  box.dataset.kind = kind;
  box.setAttribute("role", "alert");
  const title = document.createElement("p");
  title.className = "boot-error-title";
  const text = document.createElement("p");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "button primary";
  retry.dataset.testid = "boot-retry";
  retry.addEventListener("click", () => location.reload());
  const more = document.createElement("details");
  const summary = document.createElement("summary");
  const pre = document.createElement("pre");
  pre.textContent = detail;
  pre.dir = "ltr"; // technical text
  more.append(summary, pre);
  box.append(title, text, retry, more);
  shown = { box, pre, slow: kind === "slow", kind, repaint: null };
  html.dataset.boot = "failed";
  const place = document.getElementById("board-wrap");
  document.getElementById("loading")?.setAttribute("hidden", "");
  document.getElementById("board")?.setAttribute("aria-busy", "false");
  const status = document.getElementById("status");
  let table = ENGLISH;
  const current = shown;
  const paint = (t) => {
    table = t;
    box.lang = t.lang ?? "en";
    box.dir = t.dir ?? "ltr";
    title.textContent = t.title;
    text.textContent = t[current.kind];
    retry.textContent = t.retry;
    summary.textContent = t.detail;
    if (status && html.dataset.ready !== "1") status.textContent = t.title;
  };
  shown.repaint = (next) => {
    current.kind = next;
    box.dataset.kind = next;
    text.textContent = table[next];
  };
  paint(ENGLISH);
  (place ?? document.body).append(box);
  texts().then((t) => t !== ENGLISH && paint(t));
}

function describe(value) {
  if (value instanceof Event) return `${value.type} event on ${value.target?.src ?? value.target?.href ?? value.target}`;
  if (typeof value?.message === "string")
    return `${value.name ?? "Error"}: ${value.message}${value.stack ? `\n${value.stack}` : ""}`;
  return String(value);
}

function onError(detail) {
  if (html.dataset.ready === "1") return;
  const full = [detail, ...logged.filter((line) => line !== detail)].join("\n");
  show(kindOf(full), full);
}

/** A file that did not load: missing or damaged ("file"), or no network at all ("network")? */
async function onResourceError(url) {
  let status = "no response";
  try {
    status = String((await fetch(url, { method: "HEAD", cache: "no-store" })).status);
  } catch {
    if (html.dataset.ready !== "1") show("network", `could not load ${url} (no response)\n${logged.join("\n")}`);
    return;
  }
  onError(`could not load ${url} (HTTP ${status})`);
}

addEventListener("error", (event) => {
  // Resource errors (a <script>/<link> that failed) do not bubble: caught in the capture phase.
  const target = event.target;
  if (target && target !== window && (target.src || target.href)) {
    onResourceError(target.src || target.href);
  } else {
    onError(describe(event.error ?? event.message));
  }
}, true);
addEventListener("unhandledrejection", (event) => onError(describe(event.reason)));

// PyScript shows its errors (an invalid pyscript.toml, a Python exception) in a banner made for
// developers (.py-error, cut off on a phone); the player gets the message above instead.
const banners = new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === 1 && node.classList.contains("py-error")) {
        node.hidden = true;
        onError(node.textContent.trim());
      }
    }
  }
});
banners.observe(document.documentElement, { childList: true, subtree: true });

function watch() {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (html.dataset.runtime === "waiting") return; // an embed nobody has played yet
    show("slow", `no data-ready after ${START_TIMEOUT_MS / 1000} s`);
  }, START_TIMEOUT_MS);
}
watch();
addEventListener("sos:start", watch); // a start deferred to the reader's first tap: timed from it

// Once the game is ready, stop watching (the app's own errors are reported by the app); a start
// that was reported slow but finishes after all: the game is there, drop the message.
const ready = new MutationObserver(() => {
  if (html.dataset.ready === "1") {
    banners.disconnect();
    ready.disconnect();
    clearTimeout(timer);
    shown?.box.remove();
    if (shown) delete html.dataset.boot;
  }
});
ready.observe(html, { attributes: true, attributeFilter: ["data-ready"] });

