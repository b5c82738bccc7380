"""What an embedded frame costs its reader, in bytes, with and without a tap.

    .venv/bin/python benchmarks/embed_bytes.py [--idle 20] [--query "?embed=1&size=5"]

Serves the built site (``dist/``, from ``node scripts/build.mjs``) on 127.0.0.1 as GitHub Pages
does (benchmarks/site_server.py: gzip level 6 for text, JavaScript, JSON, wasm -- not zip or gz
files; ETag and ``max-age=600``, so the service worker's precache revalidates what the page has
just loaded), and counts the bytes the server sends (bodies as sent, compressed where they are)
and its responses (a 304 sends no body). Headless Chromium (``CHROMIUM``, default
/usr/bin/chromium), a new profile per case (a first visit: empty HTTP cache, no service
worker), opens the page at 320x420:

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
import os
import sys
import time
from pathlib import Path
from typing import Any

import site_server  # benchmarks/, the script's folder
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def since(log: site_server.Log, start: float) -> tuple[int, int]:
    """(bytes of body, responses) the server sent since ``start`` (``time.time()``)."""
    hits = log.since(start)
    return sum(hit.bytes for hit in hits), len(hits)


def run(base: str, log: site_server.Log, query: str, idle: float, tap: bool) -> dict[str, Any]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS
        )
        context = browser.new_context(viewport={"width": 320, "height": 420})
        page = context.new_page()
        start = time.time()
        page.goto(base + "index.html" + query)
        page.wait_for_function(
            "performance.getEntriesByName('first-contentful-paint').length > 0"
        )
        painted = since(log, start)
        row: dict[str, Any] = {"paint": painted}
        if tap:
            page.locator('button.cell[data-row="1"][data-col="1"]').click()
        if tap or "start=now" in query:
            page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
            row["ready"] = since(log, start)
        time.sleep(idle)
        row["idle"] = since(log, start)
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
    base, log, _stop = site_server.serve(DIST, flavour="pages")
    cases = [
        ("untouched", args.query, False),
        ("tapped", args.query, True),
        ("start=now", args.query + "&start=now", False),
    ]
    print(f"{'case':12} {'first paint':>14} {'ready':>16} {f'+{args.idle:.0f} s idle':>16}  worker")
    for name, query, tap in cases:
        row = run(base, log, query, args.idle, tap)

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
