// The page before Python runs (docs/architecture.md, "Before the engine is up"): the board's
// squares as the DOM contract's cells (#board button.cell[data-row][data-col]), the letters, the
// scores and the status, in the page's language. A tap on a square only records
// (row, col, letter) and shows the letter at once; Python takes the recorded taps when it is up
// (window.sosBoot.take(), read by sos/web/early.py) and sos.app.early decides what they become.
// No rule of the game is written here. What this file decides is *when* the runtime starts: at
// once, or, in an embed (?embed=1) without start=now, at the reader's first tap on a square,
// a letter or the puzzle's button (docs/embedding.md) -- until then nothing heavy is fetched.
// The URL is read as sos/app/share/params.py reads it, which validates it again and reports bad values.
// The limits are Python's (sos/rules.py), written into vendor/limits.js by the build; the texts
// come from the catalogs, written into vendor/i18n/first-paint.js by scripts/i18n.py compile.
import { APP_SIZES, DEFAULT_SIZE, MAX_PLAYERS, MIN_PLAYERS } from "./vendor/limits.js";
import { TEXTS } from "./vendor/i18n/first-paint.js";
import { languageCandidates } from "./boot-error.js";

const html = document.documentElement;
const params = new URLSearchParams(location.search);
/** The last value of a URL parameter (a repeated name counts with its last value), or null. */
const param = (name) => params.getAll(name).at(-1) ?? null;
/** A small whole number written with ASCII digits (as sos/app/share/params.py), else NaN. */
const whole = (raw) => (/^\d\d?\d?$/.test(String(raw ?? "").trim()) ? Number(String(raw).trim()) : NaN);

// --- the language: the URL's, the saved preference, the browser's (as sos.app.app.AppSession)
const lang = languageCandidates().find((tag) => Object.hasOwn(TEXTS, tag)) ?? "en";
const T = TEXTS[lang];
/** The text of `key` in the page's language, its {placeholders} filled from `values`. */
const say = (key, values = {}) =>
  String(T[key] ?? TEXTS.en[key] ?? "").replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
html.lang = lang;
html.dir = T.dir;
if (lang !== "en") {
  for (const node of document.querySelectorAll("[data-i18n], [data-i18n-aria], [data-i18n-title]")) {
    if (node.closest("dialog")) continue; // closed until Python runs: translated by it
    const { i18n, i18nAria, i18nTitle } = node.dataset;
    if (i18n && Object.hasOwn(T, i18n)) node.textContent = say(i18n);
    if (i18nAria && Object.hasOwn(T, i18nAria)) node.setAttribute("aria-label", say(i18nAria));
    if (i18nTitle && Object.hasOwn(T, i18nTitle)) node.setAttribute("title", say(i18nTitle));
  }
  document.title = say("app.title");
}

// --- what the URL asks for
const rawSize = whole(param("size"));
const size = APP_SIZES.includes(rawSize) ? rawSize : DEFAULT_SIZE; // the sizes Python offers
const rawPlayers = whole(param("players"));
const players = rawPlayers >= MIN_PLAYERS && rawPlayers <= MAX_PLAYERS ? rawPlayers : null;
/** A seat is a person or a computer level (each level has a name in the catalogs). */
const isKind = (kind) => kind === "human" || Object.hasOwn(T, `level.${kind}`);
let seats = null;
if (param("seats") !== null) {
  const parts = param("seats").split(",").map((part) => part.trim().toLowerCase());
  const fits = parts.length >= MIN_PLAYERS && parts.length <= MAX_PLAYERS && (players === null || parts.length === players);
  if (fits && parts.every(isKind)) seats = parts;
}
// Without players or seats, a game has the fewest players (two people).
const kinds = seats ?? Array(players ?? MIN_PLAYERS).fill("human");
const embed = ["1", "true"].includes(param("embed"));
/** An embed starts the runtime at the reader's first tap, unless the host asks start=now. */
const lazy = embed && String(param("start")).toLowerCase() !== "now";
const puzzle = param("puzzle");
if (embed) html.classList.add("embed");

// --- an embed's own game (docs/embedding.md, "Several frames in one page"): each frame keeps
// its game under a key of its own, sos-embed:<hash>, which sos/app/restore.py reads to restore
// it and sos/app/tab.py writes after each save, with what this page needs to draw it before
// Python runs (sos/app/share/embed.py, paint_of). The key is made of what every engine gives
// the frame on every visit: the host's `id` if it gives one, else the host page when it is on
// the game's own origin (its address, readable there whatever the referrer policy), the
// frame's position among the host's frames, and the frame's settings as read here (so the
// address Python writes back, the same settings spelled in full, keeps the key). A host on
// another origin is not in the key: the browsers keep a frame's storage apart per top-level
// site, and document.referrer, which the first keys ("v1") were made from, is not kept
// (Firefox withholds it once the service worker controls the frame; a referrer policy can
// withhold it on one visit and not another). The v1 keys this visit can still make are
// looked up when the frame has no record under its key (oldKeys). None for a game link (r=,
// game=): those name their game themselves.
/** A short stable hash of a string (cyrb53: 53 bits), in base 36. */
function hash(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
/** This frame's position among its parent's frames (readable across origins), else -1. */
function frameIndex() {
  try {
    const frames = window.parent.frames;
    for (let i = 0; i < frames.length; i++) if (frames[i] === window) return i;
  } catch {
    // a parent that cannot be reached: no position
  }
  return -1;
}
/** The host page's origin and path when it is on this frame's origin, else "". */
function samePage() {
  if (window.parent === window) return "";
  try {
    const where = window.parent.location;
    return where.origin + where.pathname;
  } catch {
    return ""; // another origin
  }
}
/** The host pages the v1 keys may have been made from: "" (no referrer), the referrer's
 * origin and path, the parent's origin and path on this origin, and the parent's origin as a
 * cross-origin referrer gives it (location.ancestorOrigins, kept by the three engines). */
function oldPages() {
  const pages = [""];
  try {
    const url = new URL(document.referrer);
    pages.push(url.origin + url.pathname);
  } catch {
    // no referrer
  }
  pages.push(samePage());
  const parent = location.ancestorOrigins?.[0];
  if (parent && parent !== "null") pages.push(parent + "/");
  return [...new Set(pages)];
}
/** The host's `id`, when it is one (sos/app/share/params.py checks it the same way), else null. */
const EMBED_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const embedId = EMBED_ID.test(param("id") ?? "") ? param("id") : null;
/** The frame's key and the v1 keys to look up when nothing is under it ([null, []] outside an
 * embed or for a game link). */
function embedKeys() {
  if (!embed || param("r") !== null || param("game") !== null) return [null, []];
  const mode = param("mode") === "simple" ? "simple" : "general";
  const settings = [size, mode, kinds.join(",")];
  const index = frameIndex();
  const where = embedId !== null ? `id|${embedId}` : `frame|${samePage()}|${index}`;
  const key = "sos-embed:" + hash(["v2", where, ...settings].join("|"));
  const old = oldPages().map((page) => {
    const origin = page === "" ? "" : new URL(page).origin;
    const at = embedId !== null ? `id|${origin}|${embedId}` : `page|${page}|${index}`;
    return "sos-embed:" + hash(["v1", at, ...settings].join("|"));
  });
  return [key, [...new Set(old)]];
}
const [key, oldKeys] = embedKeys();

// --- the game this frame showed last (its key's record), drawn as it was left: its letters,
// scores and status, as Python wrote them (no rule of the game runs here). Only when the
// address names no other game (#g=<id>) and the board has the address's size.
/** The record under the frame's key, else under the first of its v1 keys that holds one (as
 * sos/app/restore.py chooses), when it can be drawn here; else null. */
function readPainted() {
  if (key === null) return null;
  try {
    const found = [key, ...oldKeys].map((name) => localStorage.getItem(name)).find((got) => got !== null);
    const got = JSON.parse(found ?? "null");
    const fragment = location.hash.startsWith("#g=") ? location.hash.slice("#g=".length) : null;
    if (got?.format !== "sos-embed" || got.version !== 1 || got.size !== size) return null;
    if (fragment !== null && fragment !== got.id) return null;
    if (typeof got.line !== "string" || !/^([SO][a-z]\d\d?)*$/.test(got.line)) return null;
    if (!Array.isArray(got.scores) || got.scores.length !== kinds.length) return null;
    return got;
  } catch {
    return null; // blocked storage or a damaged record: the empty board
  }
}
const painted = readPainted();

// --- the board: the cells Python's sos.web.render.BoardView makes, which it adopts
const board = document.getElementById("board");
const wrap = document.getElementById("board-wrap");
const squareName = (row, col) => String.fromCharCode("a".charCodeAt(0) + col) + String(row + 1);
const cells = [];
if (board && !board.hasChildNodes()) {
  for (const node of [board, wrap]) {
    node?.style.setProperty("--rows", String(size));
    node?.style.setProperty("--cols", String(size));
  }
  for (let r = 0; r < size; r++) {
    const row = document.createElement("div");
    row.className = "board-row";
    row.setAttribute("role", "row");
    for (let c = 0; c < size; c++) {
      const gridcell = document.createElement("div");
      gridcell.className = "gridcell";
      gridcell.setAttribute("role", "gridcell");
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.row = String(r);
      cell.dataset.col = String(c);
      cell.setAttribute("aria-label", say("cell.empty", { square: squareName(r, c) }));
      cell.tabIndex = r === 0 && c === 0 ? 0 : -1; // one tab stop; the arrow keys move it
      gridcell.appendChild(cell);
      row.appendChild(gridcell);
      cells.push(cell);
    }
    board.appendChild(row);
  }
  if (painted) {
    for (const [, letter, column, row] of painted.line.matchAll(/([SO])([a-z])(\d\d?)/g)) {
      const cell = cells[(Number(row) - 1) * size + (column.charCodeAt(0) - 97)];
      if (!cell) continue;
      cell.textContent = letter;
      cell.setAttribute("aria-label", say("cell.letter", { square: squareName(Number(cell.dataset.row), Number(cell.dataset.col)), letter }));
    }
    html.dataset.painted = painted.id;
  }
  board.dataset.static = "1";
  board.setAttribute("aria-label", say("board.label", { rows: size, cols: size }));
  const label = (tag, text) => Object.assign(document.createElement(tag), { textContent: text });
  document.getElementById("coords-cols")?.replaceChildren(...cells.slice(0, size).map((_, c) => label("span", squareName(0, c)[0])));
  document.getElementById("coords-rows")?.replaceChildren(...cells.slice(0, size).map((_, r) => label("span", String(r + 1))));
}

// --- the scores (every one 0), as sos/web/dom.py draws them; Python redraws them when it is up
const scores = document.getElementById("players");
if (scores && !scores.hasChildNodes()) {
  kinds.forEach((kind, seat) => {
    const human = kind === "human";
    const name = say(human ? "player.name" : "player.computer", { n: seat + 1 });
    const styleCount = Object.keys(T).filter((key) => key.startsWith("player.style.")).length;
    const values = { name, score: 0, level: human ? "" : say(`level.${kind}`), style: say(`player.style.${seat % styleCount}`) };
    const item = document.createElement("li");
    item.className = `player p${seat}`;
    item.dataset.player = String(seat);
    item.dataset.kind = kind;
    item.setAttribute("aria-label", say(human ? "score.label" : "score.label.computer", values));
    const swatch = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    swatch.setAttribute("class", "swatch");
    swatch.setAttribute("aria-hidden", "true");
    const shown = document.createElement("span");
    shown.className = "name";
    shown.setAttribute("aria-hidden", "true");
    shown.textContent = name.replaceAll(" ", "\u00a0"); // "Computer 2" stays whole
    if (!human) shown.appendChild(Object.assign(document.createElement("span"), { className: "level", textContent: values.level }));
    const score = document.createElement("span");
    score.className = "score";
    score.dataset.testid = `score-${seat}`;
    score.setAttribute("aria-hidden", "true");
    score.textContent = String(painted ? Number(painted.scores[seat]) || 0 : 0);
    item.append(swatch, shown, score);
    scores.appendChild(item);
  });
}

// --- the letters: the saved choice (sos/app/app.py Prefs), else S
let letter = "S";
try {
  if (JSON.parse(localStorage.getItem("sos-prefs") ?? "null")?.letter === "O") letter = "O";
} catch {
  // blocked storage or damaged preferences: the app reports that itself
}
const letterButtons = [...document.querySelectorAll(".controls .letter-button")];
function showLetter() {
  for (const button of letterButtons) button.setAttribute("aria-pressed", String(button.dataset.letter === letter));
}
showLetter();
for (const button of letterButtons) button.disabled = false;

// --- starting the runtime (static/start.js waits for it; boot-error.js times it from here)
const status = document.getElementById("status");
let resolveStart;
const started = new Promise((resolve) => (resolveStart = resolve));
let running = false;

// Whether this engine gives a <link rel=preload as=fetch> response to the fetch() that asks for it.
// WebKit (Safari, and every browser on iOS and iPadOS, whatever its name) does not: the runtime's
// fetch() downloads the file again, while the preload's copy is thrown away -- measured at the
// server in WebKitGTK 2.50 with or without crossorigin, with credentials, for fetch() and XHR,
// under no-cache and max-age=600 alike (docs/browsers.md, "Preloads"; tests/engines/test_once.py).
// No feature test tells this without a request of its own, so the user agent does: WebKit's
// "AppleWebKit/" without Blink's "Chrome/" (iOS's Chrome says "CriOS/"; Pyodide's own Safari
// test is the same). There the preloads of the runtime's files are skipped (the fetch() of the
// runtime downloads each once); modulepreload is kept (WebKit uses it for import()).
const ua = navigator.userAgent;
const fetchPreloadsUsed = !(/AppleWebKit\//.test(ua) && !/Chrome\/|Chromium\//.test(ua));

// First visit (no service worker yet): start the 8 MB runtime download at once rather than at the
// end of the chain core.js -> pyscript.toml -> pyodide.mjs -> pyodide.asm.mjs. Not when the
// service worker serves the page: Chromium then compiles the wasm from its code cache, which a
// preloaded response bypasses (warm boot measured ~2 s slower with the preload;
// docs/performance.md).
function preloadWasm() {
  if (navigator.serviceWorker?.controller || !fetchPreloadsUsed) return;
  const preload = document.createElement("link");
  preload.rel = "preload";
  preload.as = "fetch";
  preload.crossOrigin = "anonymous";
  preload.href = new URL("./vendor/pyodide/pyodide.asm.wasm", import.meta.url).href;
  document.head.appendChild(preload);
}
// The rest of the runtime, requested at once rather than at the end of the chain core.js ->
// pyscript.toml -> pyodide.mjs -> pyodide.asm.mjs -> stdlib/lock file, but only after the first
// frame: as <link>s in index.html (modulepreload compiles pyodide.asm.mjs, 1.2 MB) they delayed
// the first paint by ~70 ms (cold, median of 9; docs/performance.md, "Start-up"). as="fetch" crossorigin
// matches Pyodide's plain fetch(), so Chromium and Firefox use the preloaded responses (WebKit
// does not: fetchPreloadsUsed).
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
    if (rel === "preload" && !fetchPreloadsUsed) continue; // WebKit would download it twice (above)
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

/** Start the runtime (once): the page says it is loading, the downloads begin. */
function start() {
  if (running) return;
  running = true;
  html.dataset.runtime = "starting";
  board?.setAttribute("aria-busy", "true");
  if (status && html.dataset.ready !== "1") status.textContent = say("status.loading");
  preloadWasm();
  requestAnimationFrame(() => setTimeout(preloadRuntime));
  dispatchEvent(new Event("sos:start"));
  resolveStart();
}

// --- taps before Python: recorded, shown at once, handed to Python by take()
const queue = { taps: [], letter: null, open: true };

function choose(next) {
  letter = next;
  queue.letter = next;
  showLetter();
}

/** Whether an embed waiting for its first tap opens with a computer's move: the URL's first
 * seat is a computer level and no game with moves is drawn. A tap there could not be played
 * (the computer's turn), so it only starts the game, and never shows a letter it would then
 * drop. (On the full page the engine is already loading: such a tap is dropped with a notice.) */
const computerFirst = () => lazy && seats !== null && seats[0] !== "human" && !painted?.line;

/** A tap on a square: its letter shows at once and the tap is kept, in order. A square that
 * already shows a letter keeps it (a second tap does nothing, as on a written square). */
function tap(cell) {
  if (!queue.open || cell.textContent) return;
  if (computerFirst()) {
    start(); // the computer moves first: the tap starts the game and writes nothing
    return;
  }
  const row = Number(cell.dataset.row);
  const col = Number(cell.dataset.col);
  queue.taps.push([row, col, letter]);
  cell.textContent = letter;
  cell.classList.add("pending");
  cell.setAttribute("aria-label", say("cell.letter", { square: squareName(row, col), letter }));
  start();
}

board?.addEventListener("click", (event) => {
  const cell = event.target.closest?.("button.cell");
  if (cell && queue.open && board.dataset.static) tap(cell);
});
for (const button of letterButtons) {
  button.addEventListener("click", () => {
    if (!queue.open) return;
    choose(button.dataset.letter);
    start();
  });
}
// The keyboard (as sos/web/keys.py): S / O choose the letter and, on a square, write it; the
// arrow keys, Home and End move between the squares.
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (!queue.open || event.ctrlKey || event.metaKey || event.altKey) return;
  if (target?.closest?.("input, select, textarea, dialog")) return;
  const onCell = Boolean(target?.classList?.contains("cell") && board?.contains(target));
  const key = event.key.toUpperCase();
  if (key === "S" || key === "O") {
    choose(key);
    if (onCell) tap(target);
    else start();
    event.preventDefault();
  } else if (onCell && (event.key in MOVES || event.key === "Home" || event.key === "End")) {
    let r = Number(target.dataset.row);
    let c = Number(target.dataset.col);
    if (event.key === "Home") c = 0;
    else if (event.key === "End") c = size - 1;
    else {
      r = Math.min(Math.max(r + MOVES[event.key][0], 0), size - 1);
      c = Math.min(Math.max(c + MOVES[event.key][1], 0), size - 1);
    }
    const next = cells[r * size + c];
    target.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
    event.preventDefault();
  }
});

// --- a puzzle embed (?puzzle=) waiting for its reader: a button over the board. The puzzle is
// Python's (its data and its rules), so an untouched frame cannot draw it; the button starts
// the runtime and the puzzle opens once the game is up (sos/web/panels.py open_wanted_puzzle).
const card = document.getElementById("start-card");
if (lazy && puzzle && card) {
  const button = document.getElementById("start-puzzle");
  button.textContent = say("embed.puzzle_start");
  card.hidden = false;
  board.inert = true; // the squares under the card take no tap or focus
  button.addEventListener("click", () => {
    button.disabled = true;
    start();
  });
}

// --- "Play against" (sos/app/start.py `offered`: while the game shown has no move, or only its
// first move with a person to reply -- a tap before ready -- outside an embed and a game by
// link): drawn from the first paint where the game shown will be a new one or such a saved
// one, so the board does not move down when the game is up (CLS 0 on the start screen,
// tests/e2e/test_start_layout.py). Python shows or hides it from then on.
/** Whether the saved game `record` is one the choice is offered for (sos/app/start.py `opening`). */
function opening(record) {
  if (!record || record.origin === "remote" || (record.variations ?? []).length) return false;
  if (record.line === "") return true;
  // one move (a letter, a column, a row: "Sc3"), shown, made by a person (the first seat), and
  // a person in the second seat
  const seats = record.seats ?? [];
  return /^[SO][a-z][0-9]+$/.test(record.line) && record.cursor === 1 && seats[0] === "human" && seats[1] === "human";
}
/** Whether the game Python will show is predictably one the choice is offered for (see above). */
function startOffered() {
  if (embed || param("r") !== null || param("game")) return false;
  try {
    const wanted = location.hash.startsWith("#g=") ? localStorage.getItem("sos-g:" + location.hash.slice("#g=".length)) : null;
    if (wanted !== null) {
      return opening(JSON.parse(wanted));
    }
    if (["size", "mode", "players", "seats"].some((name) => param(name) !== null)) return true;
    return !Object.keys(localStorage).some((name) => name.startsWith("sos-g:")); // a first visit
  } catch {
    return true; // no storage: every visit starts a new game
  }
}
const choice = document.getElementById("start-choice");
if (choice && startOffered()) choice.hidden = false;

// --- the status and the handover
if (status) {
  if (!lazy) status.textContent = say("status.loading");
  else if (puzzle) status.textContent = say(puzzle === "daily" ? "puzzles.daily" : "button.puzzles");
  else if (painted && painted.lang === lang && typeof painted.status === "string") showWhole(status, painted.status);
  else status.textContent = say("status.tap_to_start");
}

/** `text` in `node`, each score ("21–0") and seat name without a given one ("Computer n") in a
 * span.nb that never breaks across lines, as sos/web/nobreak.py and dom.set_text draw it. */
function showWhole(node, text) {
  const names = [];
  for (let n = 1; n <= MAX_PLAYERS; n++) names.push(say("player.name", { n }), say("player.computer", { n }));
  const escape = (name) => `(?<![\\p{L}\\p{N}_])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_])`;
  const units = names.filter((name) => name.trim() && name.length <= 24).sort((a, b) => b.length - a.length);
  const pattern = new RegExp([...units.map(escape), "\\d+(?:–\\d+)+"].join("|"), "gu");
  const runs = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) runs.push(document.createTextNode(text.slice(at, match.index)));
    runs.push(Object.assign(document.createElement("span"), { className: "nb", textContent: match[0] }));
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push(document.createTextNode(text.slice(at)));
  node.replaceChildren(...runs);
}

/** The page's handle for Python (sos/web/early.py, sos/web/main.py): `started` resolves when
 * the runtime is to start; `embedKey` is the frame's key (or null), `embedOldKeys` its v1 keys
 * to look up when nothing is under it; `take()` closes the queue
 * (from then on Python handles every event) and returns the taps in order as
 * [row, col, letter], the letter chosen before Python (in an embed: the letter shown; else null
 * when none was chosen), the board's size and the game
 * drawn under them: {id, line} of the frame's record, or null for the empty board. */
window.sosBoot = {
  started,
  embedKey: key,
  embedOldKeys: oldKeys,
  take() {
    queue.open = false;
    const shown = painted ? { id: painted.id, line: painted.line } : null;
    // An embed keeps the letter it shows: another frame of the page may have saved another
    // choice in the shared preferences meanwhile (its reader's, not this one's).
    return { taps: queue.taps, letter: queue.letter ?? (embed ? letter : null), rows: size, cols: size, shown };
  },
};

// The host page learns that the frame is drawn ("sos:shown"; "sos:ready" follows once the game
// accepts input: at once with start=now, else after the reader's first tap). docs/embedding.md.
if (embed && window.parent !== window) {
  try {
    window.parent.postMessage({ source: "sos-game", version: 1, type: "sos:shown", start: lazy ? "tap" : "now" }, "*");
  } catch {
    // a parent that cannot be reached: nothing to tell
  }
}

// Embed view: "Open the full game" = this URL without embed=1 (works even if Python fails).
const openFull = document.getElementById("open-full");
if (openFull) {
  const full = new URL(location.href);
  full.searchParams.delete("embed");
  full.searchParams.delete("start");
  full.searchParams.delete("id");
  openFull.href = full.href;
}

// An embed's messages (a notice laid over the scores, static/css/app.css) show whole lines: a
// scroll comes to rest with a line at the area's top, so its bottom edge cuts none. The lines'
// tops are measured notice by notice (each notice's lines are a line-height apart; the notices
// themselves need not be: Firefox makes each half a pixel taller, which a count of lines from
// the first drifted by, cutting a line by 1-1.5 px after a few notices).
const messages = document.getElementById("messages");
if (embed && messages) {
  const rest = () => {
    const line = parseFloat(getComputedStyle(messages).lineHeight);
    const end = messages.scrollHeight - messages.clientHeight;
    const at = messages.scrollTop;
    if (!(line > 0) || !(at > 0 && at < end)) return;
    const origin = messages.getBoundingClientRect().top + messages.clientTop - at;
    let to = 0;
    for (const notice of messages.querySelectorAll("#notice-list li")) {
      const box = notice.getBoundingClientRect();
      for (let k = 0; k < Math.max(1, Math.round(box.height / line)); k++) {
        const top = box.top - origin + k * line;
        if (Math.abs(top - at) < Math.abs(to - at)) to = top;
      }
    }
    to = Math.max(0, Math.min(end, to));
    if (Math.abs(to - at) >= 0.5) messages.scrollTo({ top: to, behavior: "smooth" });
  };
  if ("onscrollend" in window) messages.addEventListener("scrollend", rest);
  else {
    let timer = 0;
    messages.addEventListener("scroll", () => { clearTimeout(timer); timer = setTimeout(rest, 150); });
  }
}

// Drawn: the page may be shown (static/css/app.css hides it until now, so that nothing of it
// moves after its first paint).
html.dataset.drawn = "1";

// For benchmarks/bench_boot.py: the frame that shows the board drawn here.
requestAnimationFrame(() => performance.mark("sos:board"));
if (lazy) {
  html.dataset.runtime = "waiting";
  board?.removeAttribute("aria-busy"); // nothing is loading until the reader plays
} else {
  start();
}
