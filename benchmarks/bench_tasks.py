"""Main-thread tasks while computer seats play: CPU time and wall time per task.

    nice -n 10 .venv/bin/python benchmarks/bench_tasks.py [--plies 40] [--query "?size=8&..."]
        [--throttle 4] [--click]

Serves the repository root (after ``node scripts/build.mjs``) on 127.0.0.1 and opens the game in
headless Chromium (``CHROMIUM``, default /usr/bin/chromium) with computer seats only, so it
plays by itself (``--click``: a person's seat first; the script writes the first move, so that
the trace holds the computer's first search of the game). ``--throttle 4`` slows the page's CPU
4x with DevTools (a phone) from ready on. From ready until ``--plies`` actions are in the move
list it records:

- every main-thread task's **CPU** time (DevTools protocol tracing, ``RunTask`` events of the
  renderer's main thread, thread time ``tdur``): what the browser test bounds (50 ms);
- every ``longtask`` entry (over 50 ms of **wall** time, which includes being descheduled on a
  loaded machine) from a ``PerformanceObserver``.

Prints the counts, the longest tasks and the load average (wall figures are only comparable
at similar load).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))
from helpers import CpuTrace  # noqa: E402  (the same tracing as the browser test)

from sos.rules import MAX_APP_SIZE  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LONGTASKS = """() => {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longtasks.push(entry.duration);
  }).observe({ type: 'longtask' });
}"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - class attribute of the stdlib handler
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--query", default=f"?size={MAX_APP_SIZE}&seats=easy,medium,hard,hard")
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--throttle", type=float, default=1.0, help="CPU slowdown (4: a phone)")
    parser.add_argument(
        "--click", action="store_true", help="write the first move (seat 1 a person)"
    )
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(ROOT))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html{args.query}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=120_000)
        page.evaluate(LONGTASKS)
        if args.throttle != 1:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        trace = CpuTrace(page)
        if args.click:
            page.locator("button.cell").first.click()
        page.wait_for_function(
            f"document.querySelectorAll('#move-list button.ply').length >= {args.plies}",
            timeout=600_000,
        )
        tasks = trace.stop(page)
        wall = sorted(page.evaluate("window.__longtasks"), reverse=True)
        browser.close()
    server.shutdown()
    cpu = [c for c, _ in tasks]
    print(f"{args.query}, {args.plies} plies, CPU throttled {args.throttle:g}x, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  tasks traced: {len(tasks)}; CPU per task: max {cpu[0]:.1f} ms, "
          f"median {statistics.median(cpu):.2f} ms, over 50 ms: {sum(c > 50 for c in cpu)}")
    print("  longest by CPU (cpu / wall ms):",
          ", ".join(f"{c:.0f}/{w:.0f}" for c, w in tasks[:5]))
    print(f"  longtask entries (wall > 50 ms): {len(wall)}; longest: "
          + ", ".join(f"{w:.0f}" for w in wall[:5]))


if __name__ == "__main__":
    main()
