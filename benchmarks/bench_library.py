"""A large library of saved games in the page: the start, "Your games", New game and a move.

    .venv/bin/python benchmarks/bench_library.py [--games 2000 10000] [--runs 5]

Serves the repository (built with ``node scripts/build.mjs``) on 127.0.0.1 and opens it in
headless Chromium (``CHROMIUM``, default /usr/bin/chromium). For each library size it fills
``localStorage`` with that many games (6 x 6, one to five moves each, no index), then measures:

- ``first start``: navigation to ``data-ready`` on the first start after the update (the index
  is built: each game is read once);
- ``start``: the same on a reload (the index is there);
- ``list``: a click on "Your games" until its first page is in the DOM (the click handler is
  synchronous: measured around ``click()`` in the page);
- ``new game``: a click on New game, until its save under the library's Web Lock is done;
- ``move``: a click on a square, likewise.

Wall times in milliseconds (median of ``--runs``; the machine's load average is printed with
them). Targets (issue 25): list < 300 ms and New game < 100 ms at 10 000 games.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
FILL = """([count, size]) => {
  localStorage.clear();
  const letters = ['Sa1', 'Ob1', 'Sc1', 'Od2', 'Se3'];
  for (let n = 0; n < count; n++) {
    const line = letters.slice(0, 1 + (n % 5)).join('');
    localStorage.setItem('sos-g:big' + n, JSON.stringify({format: 'sos-game', version: 2,
      id: 'big' + n, rows: size, cols: size, mode: 'general', players: 2,
      seats: ['human', 'human'], line, cursor: line.length / 3, variations: [],
      created: 1.6e12 + n * 1000, updated: 1.6e12 + n * 1000, rev: 1, origin: 'new'}));
  }
}"""
# A click, then the library's lock once more: the save queued by the click is done then.
CLICK = """async (selector) => {
  const start = performance.now();
  document.querySelector(selector).click();
  const sync = performance.now() - start;
  if (navigator.locks) await navigator.locks.request('sos-library', () => {});
  return [sync, performance.now() - start];
}"""


COLUMNS = ("first start", "start", "list", "new game", "move")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve() -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def ready(page: Page, url: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=300_000)
    return (time.perf_counter() - start) * 1000


def measure(page: Page, base: str, games: int, runs: int) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {k: [] for k in COLUMNS}
    for _ in range(runs):
        page.goto(base + "index.html?size=6")
        page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=300_000)
        page.evaluate(FILL, [games, 6])
        figures["first start"].append(ready(page, base + "index.html"))
        figures["start"].append(ready(page, base + "index.html"))
        page.wait_for_timeout(3500)  # after the page's key check (3 s after its start)
        sync, _ = page.evaluate(CLICK, "[data-testid=games]")
        figures["list"].append(sync)
        page.wait_for_selector("[data-testid=game-entry] >> nth=29", state="attached")
        page.keyboard.press("Escape")
        _, total = page.evaluate(CLICK, "[data-testid=new-game]")
        figures["new game"].append(total)
        _, total = page.evaluate(CLICK, "#board button.cell[data-row='3'][data-col='3']")
        figures["move"].append(total)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2000, 10_000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with serve() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page()
        print(f"load average {os.getloadavg()[0]:.1f}; median of {args.runs} runs, ms")
        print(
            f"{'games':>7} "
            + " ".join(f"{k:>12}" for k in COLUMNS)
        )
        for games in args.games:
            figures = measure(page, base, games, args.runs)
            print(
                f"{games:>7} "
                + " ".join(f"{statistics.median(v):>12.0f}" for v in figures.values())
            )
        print(f"load average {os.getloadavg()[0]:.1f}")
        browser.close()


if __name__ == "__main__":
    main()
