"""Boot time of the game against a hello-world PyScript page on the same vendored runtime.

    .venv/bin/python benchmarks/bench_boot.py [--runs 5] [--query "?size=6"]

Serves the built site (``dist/``, from ``node scripts/build.mjs``) on 127.0.0.1, with
``benchmarks/hello/`` mounted at the same path as in the repository, so that the hello page
loads the very same ``static/vendor/`` files. Headless Chromium (``CHROMIUM``, default
/usr/bin/chromium) then loads each page, alternating game / hello:

- **cold**: a new browser profile per load (empty HTTP cache, no service worker);
- **warm**: one profile in which the game was opened once and its service worker installed
  (it precaches ``static/vendor/``); each load, game or hello alternating, in a new tab, files
  from the service worker. The hello page lies in the worker's scope, so it is served the same
  way; sharing the profile keeps the caches of two different profiles out of the comparison.

Printed per case (medians; all times from navigation start): ``paint`` first contentful paint;
``board`` the first frame after static/boot.js drew the board skeleton (``sos:board`` mark, never
before the first paint; the hello page has no board: its first paint), ``python``
(PyScript's ``py:ready``: the interpreter is up and the config's files are in place), ``ready``
(``data-ready="1"``), ``kB`` transferred (resource timing ``transferSize``, page included), and
the game ÷ hello ratios; then what the game does after ``py:ready``: its imports (up to the
``sos:imported`` mark of sos/web/main.py) and ``App()`` with the first render (up to ``sos:ready``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
HELLO = ROOT / "benchmarks" / "hello"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".toml": "application/toml", ".py": "text/x-python",
         ".zip": "application/zip", ".svg": "image/svg+xml",
         ".webmanifest": "application/manifest+json"}

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
           sw: !!navigator.serviceWorker?.controller };
}"""


class Handler(http.server.SimpleHTTPRequestHandler):
    def handle(self) -> None:
        with contextlib.suppress(ConnectionError):  # a tab closed mid-response
            super().handle()

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

    def translate_path(self, path: str) -> str:
        prefix = "/benchmarks/hello/"
        if path.startswith(prefix):  # the hello page, next to the site as in the repository
            name = path[len(prefix):].split("?", 1)[0] or "index.html"
            return str(HELLO / name)
        return super().translate_path(path)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve() -> str:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(DIST))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def launch(pw: Playwright, profile: str) -> BrowserContext:
    return pw.chromium.launch_persistent_context(
        profile, executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        headless=True, args=ARGS, viewport={"width": 1280, "height": 800},
    )


def load(context: BrowserContext, url: str) -> dict[str, Any]:
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
    page.wait_for_timeout(300)  # let the paint observer and resource timing settle
    result: dict[str, Any] = page.evaluate(RESULT)
    page.close()
    return result


def install_worker(context: BrowserContext, url: str) -> None:
    """Open the game once and wait until its service worker controls the scope."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    page.wait_for_function(
        "navigator.serviceWorker.ready.then((r) => r.active?.state === 'activated')"
    )
    page.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default="?size=6", help="query string of the game page")
    args = parser.parse_args()
    if not (DIST / "static" / "vendor" / "pyodide" / "pyodide.asm.wasm").is_file():
        print("dist/ is missing: run `npm ci && node scripts/build.mjs` first", file=sys.stderr)
        return 1
    base = serve()
    urls = {"game": base + "index.html" + args.query, "hello": base + "benchmarks/hello/index.html"}
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        # One warm profile for both pages: the same service worker serves them, and both
        # compile the same wasm, so neither gets a cache the other lacks.
        shared = launch(pw, f"{tmp}/warm")
        install_worker(shared, urls["game"])
        warm = dict.fromkeys(urls, shared)
        for run in range(args.runs):
            order = list(urls) if run % 2 == 0 else list(urls)[::-1]  # alternate who goes first
            for kind in order:
                context = launch(pw, f"{tmp}/cold-{kind}-{run}")
                results.setdefault(("cold", kind), []).append(load(context, urls[kind]))
                context.close()
            for kind in order:
                got = load(warm[kind], urls[kind])
                assert got["sw"], f"warm {kind} page is not controlled by the service worker"
                results.setdefault(("warm", kind), []).append(got)
        shared.close()

    def median(case: str, kind: str, key: str) -> float:
        return statistics.median(r[key] for r in results[(case, kind)])

    print(f"boot of {urls['game']} vs the hello page, {args.runs} runs each, medians")
    heads = ("paint ms", "board ms", "python ms", "ready ms")
    print(f"{'':13} " + " ".join(f"{h:>9}" for h in heads) + f" {'kB':>8}")
    for case in ("cold", "warm"):
        for kind in urls:
            print(
                f"{case:6} {kind:6} {median(case, kind, 'paint'):9.0f} "
                f"{median(case, kind, 'board'):9.0f} {median(case, kind, 'python'):9.0f} "
                f"{median(case, kind, 'ready'):9.0f} "
                f"{median(case, kind, 'bytes') / 1000:8.0f}"
            )
        ratio = median(case, "game", "ready") / median(case, "hello", "ready")
        paint = median(case, "game", "board") / median(case, "hello", "paint")
        size = median(case, "game", "bytes") / max(median(case, "hello", "bytes"), 1)
        print(f"{case:6} game ÷ hello: ready {ratio:.2f}, board ÷ paint {paint:.2f}, "
              f"bytes {size:.2f}")
        game = results[(case, "game")]
        imports = statistics.median(r["imported"] - r["python"] for r in game)
        start = statistics.median(r["app"] - r["imported"] for r in game)
        hello = statistics.median(r["ready"] - r["python"] for r in results[(case, "hello")])
        print(f"{case:6} after py:ready: game imports {imports:.0f} ms + App() and first render "
              f"{start:.0f} ms; hello {hello:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
