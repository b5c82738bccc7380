"""Boot time of the game against a hello-world PyScript page on the same vendored runtime.

    .venv/bin/python benchmarks/bench_boot.py [--runs 5] [--query "?size=6"] [--throttle 4]

Serves the built site (``dist/``, from ``node scripts/build.mjs``) on 127.0.0.1 as GitHub Pages
does (benchmarks/site_server.py: gzip for text, JavaScript, JSON, wasm; ETag, max-age=600), with
``benchmarks/hello/`` mounted at the same path as in the repository, so that the hello page
loads the very same ``static/vendor/`` files. Headless Chromium (``CHROMIUM``, default
/usr/bin/chromium) then loads each page, alternating game / hello, at full speed and with the
CPU slowed down ``--throttle`` times (DevTools protocol ``Emulation.setCPUThrottlingRate``, a
common stand-in for a mid-range phone; 0 skips it):

- **cold**: a new browser profile per load (empty HTTP cache, no service worker);
- **warm**: one profile in which the game was visited twice, each visit left open 15 s (the
  service worker installed, the memory snapshot made on the device by the first); each load,
  game or hello alternating, in a new tab, files from the service worker; the game restores the
  snapshot.
  The hello page lies in the worker's scope, so it is served the same
  way; sharing the profile keeps the caches of two different profiles out of the comparison.

Printed per case (medians; all times from navigation start): ``paint`` first contentful paint;
``board`` the first frame after static/boot.js drew the board skeleton (``sos:board`` mark, never
before the first paint; the hello page has no board: its first paint), ``python``
(PyScript's ``py:ready``: the interpreter is up and the config's files are in place), ``ready``
(``data-ready="1"``), ``kB`` transferred (resource timing ``transferSize``, gzip, page included)
and ``raw kB`` (``decodedBodySize``), and the game ÷ hello ratios against the targets of issue
16 (warm ≤ 0.5, cold ≤ 1.0 in time and bytes, board within 300 ms); then what the game does after
``py:ready``: its imports (up to the ``sos:imported`` mark of sos/web/main.py) and ``App()`` with
the first render (up to ``sos:ready``), and the start path of each page: the median ms of
PyScript's phases (its ``py:progress`` events: the IndexedDB package cache, the interpreter,
the ``[files]``) and of the game's own marks (``sos:interpreter-start``: pyodide-snap.mjs starts
loading Python, ``sos:load-pyodide``: PyScript asks for it). The load average is printed with
the figures. Pyodide's full ``python_stdlib.zip``, which the site does not ship, is served to
the hello page from the build's ``static/vendor/``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import site_server  # benchmarks/, the script's folder
from playwright.sync_api import BrowserContext, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
HELLO = ROOT / "benchmarks" / "hello"
FULL_STDLIB = "static/vendor/pyodide/python_stdlib.zip"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Collects the timings in the page (runs before any of its scripts).
PROBE = """(() => {
  const boot = (window.__boot = {});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.name === "first-contentful-paint") boot.paint = e.startTime;
  }).observe({ type: "paint", buffered: true });
  new MutationObserver(() => {
    if (!boot.ready && document.documentElement?.dataset.ready === "1")
      boot.ready = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  addEventListener("py:ready", () => { boot.python ??= performance.now(); }, true);
  // PyScript's phases ("Loading Storage", "Loaded interpreter", "Loaded files", ...)
  boot.progress = {};
  addEventListener("py:progress", (e) => { boot.progress[e.detail] ??= performance.now(); }, true);
})();"""
RESULT = """() => {
  const boot = window.__boot;
  const mark = performance.getEntriesByName("sos:board")[0];
  const entries = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource")];
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
  return { paint: boot.paint, ready: boot.ready, python: boot.python ?? NaN,
           imported: at("sos:imported"), app: at("sos:ready"),
           board: mark ? Math.max(mark.startTime, boot.paint ?? 0) : boot.paint,
           bytes: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0),
           raw: entries.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0),
           snapshot: document.documentElement.dataset.snapshot === "restored",
           progress: { ...boot.progress, ...Object.fromEntries(
             performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])) },
           sw: !!navigator.serviceWorker?.controller };
}"""


def serve() -> str:
    """The built site at a server that caches and compresses as GitHub Pages does
    (benchmarks/site_server.py), the hello page and Pyodide's full standard library mounted."""
    url, _log, _stop = site_server.serve(
        DIST,
        flavour="pages",
        mounts={"/benchmarks/hello/": HELLO, "/" + FULL_STDLIB: ROOT / FULL_STDLIB},
    )
    return url


def launch(pw: Playwright, profile: str) -> BrowserContext:
    return pw.chromium.launch_persistent_context(
        profile,
        executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        headless=True,
        args=ARGS,
        viewport={"width": 1280, "height": 800},
    )


def load(context: BrowserContext, url: str, throttle: float = 1) -> dict[str, Any]:
    page = context.new_page()
    if throttle > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
    page.wait_for_timeout(300)  # let the paint observer and resource timing settle
    result: dict[str, Any] = page.evaluate(RESULT)
    page.close()
    return result


def install_worker(context: BrowserContext, url: str, open_for: float = 15) -> None:
    """A first and a second visit to the game, each left open ``open_for`` seconds (at least
    until its service worker controls it, and the first until it has made its memory snapshot):
    the visits after these are "warm"."""
    for visit in range(2):
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        if visit == 0:
            page.wait_for_function(
                "['made', 'failed'].includes(document.documentElement.dataset.snapshot)",
                timeout=120_000,
            )
        page.wait_for_timeout(open_for * 1000)
        page.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default="?size=6", help="query string of the game page")
    parser.add_argument(
        "--throttle",
        type=float,
        default=4,
        help="CPU slowdown of the second series (0: full speed only)",
    )
    args = parser.parse_args()
    if not (DIST / "static" / "vendor" / "pyodide" / "pyodide.asm.wasm").is_file():
        print("dist/ is missing: run `npm ci && node scripts/build.mjs` first", file=sys.stderr)
        return 1
    base = serve()
    urls = {"game": base + "index.html" + args.query, "hello": base + "benchmarks/hello/index.html"}
    rates = [1.0] + ([args.throttle] if args.throttle > 1 else [])
    results: dict[tuple[str, float, str], list[dict[str, Any]]] = {}
    load_before = os.getloadavg()
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        # One warm profile for both pages: the same service worker serves them, and both
        # compile the same wasm, so neither gets a cache the other lacks.
        shared = launch(pw, f"{tmp}/warm")
        install_worker(shared, urls["game"])
        for run in range(args.runs):
            order = list(urls) if run % 2 == 0 else list(urls)[::-1]  # alternate who goes first
            for rate in rates:
                for kind in order:
                    context = launch(pw, f"{tmp}/cold-{kind}-{run}-{rate}")
                    results.setdefault(("cold", rate, kind), []).append(
                        load(context, urls[kind], rate)
                    )
                    context.close()
                for kind in order:
                    got = load(shared, urls[kind], rate)
                    assert got["sw"], f"warm {kind} page is not controlled by the service worker"
                    if kind == "game":
                        assert got["snapshot"], "warm game page did not restore the snapshot"
                    results.setdefault(("warm", rate, kind), []).append(got)
        shared.close()
    load_after = os.getloadavg()

    def median(case: str, rate: float, kind: str, key: str) -> float:
        return statistics.median(r[key] for r in results[(case, rate, kind)])

    def verdict(value: float, limit: float) -> str:
        return f"{value:.2f} ({'met' if value <= limit else 'MISSED'}: target <= {limit})"

    print(
        f"boot of {urls['game']} vs the hello page, {args.runs} runs each, medians; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
        f"({os.cpu_count()} CPUs)"
    )
    heads = ("paint ms", "board ms", "python ms", "ready ms")
    print(f"{'':18} " + " ".join(f"{h:>9}" for h in heads) + f" {'kB gzip':>8} {'raw kB':>8}")
    for rate in rates:
        cpu = "1x CPU" if rate == 1 else f"{rate:g}x slower CPU"
        for case in ("cold", "warm"):
            for kind in urls:
                print(
                    f"{case:5} {kind:5} {rate:>4g}x "
                    f"{median(case, rate, kind, 'paint'):9.0f} "
                    f"{median(case, rate, kind, 'board'):9.0f} "
                    f"{median(case, rate, kind, 'python'):9.0f} "
                    f"{median(case, rate, kind, 'ready'):9.0f} "
                    f"{median(case, rate, kind, 'bytes') / 1000:8.0f} "
                    f"{median(case, rate, kind, 'raw') / 1000:8.0f}"
                )
            ready = median(case, rate, "game", "ready") / median(case, rate, "hello", "ready")
            board = median(case, rate, "game", "board")
            size = median(case, rate, "game", "bytes") / max(
                median(case, rate, "hello", "bytes"), 1
            )
            limit = 0.5 if case == "warm" else 1.0
            line = f"{case:5} {cpu}: game ÷ hello to data-ready {verdict(ready, limit)}"
            if case == "cold":
                line += f"; bytes {verdict(size, 1.0)}"
            line += (
                f"; game ready {median(case, rate, 'game', 'ready') / 1000:.2f} s"
                f"; board painted {board:.0f} ms"
            )
            if rate == 1:
                line += f" ({'met' if board <= 300 else 'MISSED'}: target <= 300 ms)"
            print(line)
            game = results[(case, rate, "game")]
            imports = statistics.median(r["imported"] - r["python"] for r in game)
            start = statistics.median(r["app"] - r["imported"] for r in game)
            hello = statistics.median(
                r["ready"] - r["python"] for r in results[(case, rate, "hello")]
            )
            print(
                f"{case:5} {cpu}: after py:ready: game imports {imports:.0f} ms + App() and "
                f"first render {start:.0f} ms; hello {hello:.0f} ms"
            )
            for kind in urls:
                print(
                    f"{case:5} {cpu}: {kind:5} start path: " + phases(results[(case, rate, kind)])
                )
    return 0


#: PyScript's start phases (its py:progress events), as "name: (first event, last event)"; the
#: game's interpreter loads from sos:interpreter-start on, in parallel with PyScript's phases.
PHASES = {
    "interpreter module run": (None, "sos:interpreter-start"),
    "PyScript up": (None, "Loading Pyodide"),
    "PyScript asks for it": (None, "sos:load-pyodide"),
    "IndexedDB (packages cache)": ("Loading Storage", "Loaded Storage"),
    "interpreter": ("Loading interpreter", "Loaded interpreter"),
    "[files]": ("Loading files", "Loaded files"),
    "rest to py:ready": ("Loaded Pyodide", "python"),
    "script to data-ready": ("python", "ready"),
}


def phases(loads: list[dict[str, Any]]) -> str:
    """Median ms of each start phase (``PHASES``) over ``loads``: a span, or the time from
    navigation to an event (the game's own marks: pyodide-snap.mjs starts the interpreter at
    ``sos:interpreter-start``, PyScript asks for it at ``sos:load-pyodide``)."""

    def at(load: dict[str, Any], name: str | None) -> float:
        if name is None:
            return 0.0
        value = load.get(name, load["progress"].get(name, float("nan")))
        return float("nan") if value is None else float(value)

    parts = []
    for label, (first, last) in PHASES.items():
        spans = [at(r, last) - at(r, first) for r in loads]
        spans = [s for s in spans if s == s]  # a phase the page did not have (no [files])
        if spans:
            parts.append(f"{label} {statistics.median(spans):.0f}")
    return ", ".join(parts) + " ms"


if __name__ == "__main__":
    sys.exit(main())
