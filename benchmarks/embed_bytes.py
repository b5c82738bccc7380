"""What an embedded frame costs its reader, in bytes, with and without a tap.

    .venv/bin/python benchmarks/embed_bytes.py [--idle 20] [--query "?embed=1&size=5"]

Serves the built site (``dist/``, from ``node scripts/build.mjs``) on 127.0.0.1, gzip-compressing
responses as GitHub Pages does (level 6; text, JavaScript, JSON, wasm -- not zip or gz files),
and counts the bytes the server sends (bodies as sent, compressed where they are) with the time
of each request. Headless Chromium (``CHROMIUM``, default /usr/bin/chromium), a new profile per
case (a first visit: empty HTTP cache, no service worker), opens the page at 320x420:

- ``untouched``: the embed as given, never touched: bytes by the first contentful paint, then
  after ``--idle`` seconds;
- ``tapped``: the same embed, one tap on a square at the first paint: bytes until the game is
  ready (``data-ready``), then ``--idle`` seconds later (the service worker's precache);
- ``start=now``: the embed with ``start=now``: bytes until ready, then ``--idle`` seconds later.

Prints one line per case: kB at each point and the number of requests; no figure is a target
here (docs/embedding.md quotes them, benchmarks/RESULTS.md keeps the dated runs).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".toml": "application/toml", ".py": "text/x-python",
         ".zip": "application/zip", ".svg": "image/svg+xml",
         ".webmanifest": "application/manifest+json"}
COMPRESSED = ("text/", "application/javascript", "application/json", "application/wasm",
              "application/toml", "image/svg+xml", "application/manifest+json")

#: (seconds since the server started, path, bytes sent) of every response.
SENT: list[tuple[float, str, int]] = []
_LOCK = threading.Lock()


class Handler(http.server.SimpleHTTPRequestHandler):
    """The stdlib's file handler with gzip for compressible types, counting what it sends."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        kind = self.guess_type(path)
        if (os.path.isfile(path) and kind.startswith(COMPRESSED)
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            body = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self._count(len(body))
            import io

            return io.BytesIO(body)
        head = super().send_head()
        if head is not None and os.path.isfile(path):
            self._count(os.path.getsize(path))
        return head

    def _count(self, size: int) -> None:
        with _LOCK:
            SENT.append((time.monotonic(), self.path.split("?")[0], size))


def serve() -> str:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(DIST))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def since(start: float) -> tuple[int, int]:
    """(bytes, requests) the server sent since ``start``."""
    with _LOCK:
        got = [size for at, _, size in SENT if at >= start]
    return sum(got), len(got)


def run(base: str, query: str, idle: float, tap: bool) -> dict[str, Any]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS
        )
        context = browser.new_context(viewport={"width": 320, "height": 420})
        page = context.new_page()
        start = time.monotonic()
        page.goto(base + "index.html" + query)
        page.wait_for_function(
            "performance.getEntriesByName('first-contentful-paint').length > 0"
        )
        painted = since(start)
        row: dict[str, Any] = {"paint": painted}
        if tap:
            page.locator('button.cell[data-row="1"][data-col="1"]').click()
        if tap or "start=now" in query:
            page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
            row["ready"] = since(start)
        time.sleep(idle)
        row["idle"] = since(start)
        row["worker"] = page.evaluate(
            "navigator.serviceWorker.getRegistrations().then(r => r.length)"
        )
        browser.close()
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--idle", type=float, default=20.0, help="seconds watched after")
    parser.add_argument("--query", default="?embed=1&size=5")
    args = parser.parse_args()
    if not (DIST / "index.html").is_file():
        print("dist/ is missing: run `node scripts/build.mjs`", file=sys.stderr)
        return 1
    base = serve()
    cases = [
        ("untouched", args.query, False),
        ("tapped", args.query, True),
        ("start=now", args.query + "&start=now", False),
    ]
    print(f"{'case':12} {'first paint':>14} {'ready':>16} {f'+{args.idle:.0f} s idle':>16}  worker")
    for name, query, tap in cases:
        row = run(base, query, args.idle, tap)

        def shown(key: str, row: dict[str, Any] = row) -> str:
            if key not in row:
                return "-"
            size, count = row[key]
            return f"{size / 1000:,.1f} kB/{count}"

        print(f"{name:12} {shown('paint'):>14} {shown('ready'):>16} {shown('idle'):>16}  "
              f"{row['worker']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
