"""A first visit's bytes until ``data-ready`` in each engine, and what was sent twice (issue 40).

    .venv/bin/python benchmarks/bench_once.py [--runs 3] [--query "?size=6"]
                                             [--engines chromium,firefox,webkit] [--plain]

Serves the built site (``dist/``; ``node scripts/build.mjs`` first) as GitHub Pages does
(benchmarks/site_server.py: gzip, ``max-age=600``, ETags; ``--plain``: no compression) and loads
``index.html`` + ``--query`` in a new profile of Debian's Chromium (Playwright), Firefox ESR
(WebDriver BiDi) and WebKitGTK (MiniBrowser through WebKitWebDriver, under Xvfb), a new server
(a new origin) per visit, the engines alternating within each run.

Printed per engine: the body bytes the server sent from the page's request until the page said
``data-ready`` (gzip as sent), the number of 200 answers, the paths answered 200 more than once
in that time, and ``sos:ready`` (ms from navigation start, the page's own mark), median and range
over the runs. Why a file could come twice: docs/browsers.md, "Preloads". A benchmark, not a
test (tests/engines/test_once.py asserts that nothing of the runtime comes twice).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "engines"), str(ROOT / "benchmarks"), str(ROOT)]

import drivers  # noqa: E402 - tests/engines/drivers.py, put on the path above
import site_server  # noqa: E402 - benchmarks/site_server.py

READY = """() => { const m = performance.getEntriesByName('sos:ready')[0];
                   return m ? m.startTime : null; }"""


def one_visit(engine: drivers.Engine, query: str, compress: bool) -> dict[str, Any]:
    """A first visit in a new profile on a new origin: bytes, 200s and doubles to data-ready."""
    url, log, stop = site_server.serve(ROOT / "dist", compress=compress)
    profile = engine.profile(1280, 800)
    try:
        profile.open(url + "index.html" + query, timeout=300)
        hits = list(log.hits)  # what was sent when the page said data-ready
        ready = profile.call(READY)
    finally:
        profile.close()
        stop()
    full = Counter(hit.path.split("?")[0] for hit in hits if hit.status == 200)
    return {
        "bytes": sum(hit.bytes for hit in hits),
        "ok": sum(full.values()),
        "twice": {path: n for path, n in sorted(full.items()) if n > 1},
        "ready": ready,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--query", default="?size=6")
    parser.add_argument("--engines", default=",".join(drivers.ENGINES))
    parser.add_argument("--plain", action="store_true", help="a server that does not compress")
    args = parser.parse_args()
    if not (ROOT / "dist" / "index.html").is_file():
        raise SystemExit("dist/ is missing: run `node scripts/build.mjs` first")
    names = [name for name in args.engines.split(",") if name]
    load_before = os.getloadavg()
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    started = time.monotonic()
    with drivers.launched(names) as engines:
        for run, name in drivers.rotation(names, args.runs):
            got = one_visit(engines[name], args.query, not args.plain)
            results[name].append(got)
            print(f"run {run + 1} {name:8} {got['bytes'] / 1e6:7.3f} MB {got['ok']:3} x 200"
                  f"  ready {got['ready']:7.0f} ms  twice {got['twice'] or 'nothing'}",
                  flush=True)  # fmt: skip
        versions = {name: engines[name].version for name in names}
    load_after = os.getloadavg()

    print(f"\n{args.runs} first visits of index.html{args.query} per engine "
          f"({'no compression' if args.plain else 'gzip as Pages'}), "
          f"{time.monotonic() - started:.0f} s; load average {load_before[0]:.1f} before, "
          f"{load_after[0]:.1f} after")  # fmt: skip
    print("| engine | MB to data-ready (median) | 200s | sent twice | ready ms (median, range) |")
    print("|---|---:|---:|---|---|")
    for name in names:
        got = results[name]
        ready = [r["ready"] for r in got]
        twice = sorted({p.rsplit("/", 1)[-1] for r in got for p in r["twice"]})
        print(f"| {versions[name]} | {statistics.median(r['bytes'] for r in got) / 1e6:.3f} | "
              f"{statistics.median(r['ok'] for r in got):.0f} | {', '.join(twice) or 'nothing'} | "
              f"{statistics.median(ready):.0f} ({min(ready):.0f}–{max(ready):.0f}) |")  # fmt: skip


if __name__ == "__main__":
    main()
