"""Start time of the game in each engine, on the same machine in one run (issue 40).

    .venv/bin/python benchmarks/bench_engines.py [--runs 3] [--query "?size=6"]
                                                [--engines chromium,firefox,webkit]

Serves the repository on 127.0.0.1 (tests/engines/drivers.py's ``Server``, as the cross-engine
tests do: no compression, ``Cache-Control: no-cache``) and loads ``index.html`` + ``--query`` in
Debian's Chromium (Playwright), Firefox ESR (WebDriver BiDi) and WebKitGTK (MiniBrowser through
WebKitWebDriver, under Xvfb), the engines alternating within each run (their order rotating from
run to run, so that a change of the machine's load is spread over all of them):

- **first**: a new profile on an origin it never saw (a new server port): no HTTP cache, no
  service worker, Python starts without a memory snapshot;
- **again**: the same profile reloaded once its service worker controls the page and the memory
  snapshot is made or given up (``<html data-snapshot>``): files from the service worker, the
  snapshot restored where the engine made one.

Printed per engine and case, in ms from navigation start (the page's Performance marks, so no
driver round trip is counted): ``board`` (``sos:board``, the first frame with the board drawn by
static/boot.js), ``ready`` (``sos:ready``, set by sos/web/main.py with ``data-ready="1"``), the
median and the range over the runs; with what the snapshot did and the load average before and
after. A benchmark, not a test: it prints figures and judges nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "engines"), str(ROOT)]

import drivers  # noqa: E402 - tests/engines/drivers.py, put on the path above

MARKS = """() => Object.fromEntries(['sos:board', 'sos:ready'].map(
  (name) => { const m = performance.getEntriesByName(name)[0];
              return [name, m ? m.startTime : null]; }))"""
SNAPSHOT = """() => { const fate = document.documentElement.dataset.snapshot;
  return ['made', 'failed', 'restored'].includes(fate) ? fate : null; }"""


def one_visit(engine: drivers.Engine, query: str) -> dict[str, Any]:
    """A first visit and a returning one in a new profile; marks in ms and the snapshot's fate."""
    server = drivers.Server()
    profile = engine.profile(1280, 800)
    try:
        profile.open(server.url + "index.html" + query, timeout=300)
        first = profile.call(MARKS)
        profile.wait_for(
            "() => navigator.serviceWorker.controller !== null", timeout=300,
            what="the service worker in control",
        )  # fmt: skip
        made = profile.wait_for(SNAPSHOT, timeout=300, what="the snapshot made or given up")
        profile.reload()
        profile.ready(300)
        again = profile.call(MARKS)
        used = profile.call("() => document.documentElement.dataset.snapshot || 'none'")
        return {"first": first, "again": again, "snapshot": f"{made} -> {used}"}
    finally:
        profile.close()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--query", default="?size=6")
    parser.add_argument("--engines", default=",".join(drivers.ENGINES))
    args = parser.parse_args()
    names = [name for name in args.engines.split(",") if name]
    load_before = os.getloadavg()
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    started = time.monotonic()
    with drivers.launched(names) as engines:
        for run, name in drivers.rotation(names, args.runs):
            got = one_visit(engines[name], args.query)
            results[name].append(got)
            print(f"run {run + 1} {name:8} first ready {got['first']['sos:ready']:7.0f} ms"
                  f"  again ready {got['again']['sos:ready']:7.0f} ms"
                  f"  snapshot {got['snapshot']}", flush=True)  # fmt: skip
        versions = {name: engines[name].version for name in names}
    load_after = os.getloadavg()

    print(f"\n{args.runs} runs of index.html{args.query}, {time.monotonic() - started:.0f} s; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")  # fmt: skip
    print("| engine | case | board ms (median) | ready ms (median) | ready ms (range) | snapshot |")
    print("|---|---|---:|---:|---|---|")
    for name in names:
        for case in ("first", "again"):
            board = [r[case]["sos:board"] for r in results[name] if r[case]["sos:board"]]
            ready = [r[case]["sos:ready"] for r in results[name]]
            fates = sorted({r["snapshot"] for r in results[name]})
            print(f"| {versions[name]} | {case} | {statistics.median(board):.0f} | "
                  f"{statistics.median(ready):.0f} | {min(ready):.0f}–{max(ready):.0f} | "
                  f"{', '.join(fates) if case == 'again' else ''} |")  # fmt: skip


if __name__ == "__main__":
    main()
