"""What a visit costs in bytes, counted at the server, per phase.

    .venv/bin/python benchmarks/bench_bytes.py [--idle 30] [--embed-idle 20] [--flavour pages]
        [--uncompressed]

Serves the built site (``dist/``, from ``node scripts/build.mjs``) as GitHub Pages does
(benchmarks/site_server.py: gzip level 6 for text, JavaScript, JSON and wasm; ETag and
``max-age=600``), counts the body bytes it sends, and drives headless Chromium (``CHROMIUM``,
default /usr/bin/chromium), each scenario in a new profile:

- **embed, untouched**: a host page (another origin of the same site: 127.0.0.1, another port)
  with ``index.html?embed=1&size=5`` in a 320x420 iframe in view, left alone ``--embed-idle`` s;
- **embed, tapped**: the same, the first square tapped as soon as it is painted, then left
  ``--idle`` s after the game is ready;
- **first visit**: the full game (``index.html?size=6``), left ``--idle`` s after ready;
- **returning visit**: the same profile, a new tab, left ``--idle`` s after ready;
- **first visit, private window**: the full game in a new off-the-record context (its HTTP cache
  lives in memory), left ``--idle`` s after ready.

``--uncompressed``: the server sends every body as it is on disk (as ``python -m http.server``).

Printed per scenario: the bytes sent up to the first contentful paint of the game's document,
up to ``data-ready`` (``-``: not reached), and in all (after the idle time: the service worker's
precache and the memory snapshot's making included); the responses (200s and 304s); the files
whose body was sent more than once; and the load average. Bytes are bodies as sent (gzip where
Pages compresses), headers not counted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import site_server  # benchmarks/, the script's folder
from playwright.sync_api import BrowserContext, Frame, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOST_PAGE = """<!doctype html><meta charset="utf-8"><title>A blog post</title>
<p>Some text before the game.</p>
<iframe id="game" src="{src}" width="320" height="420" style="border:0"></iframe>
<p>Some text after it.</p>"""
#: In every frame: the epoch milliseconds of its first contentful paint and of data-ready.
PROBE = """(() => {
  const at = (window.__bytesProbe = {});
  const now = () => performance.timeOrigin + performance.now();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.name === "first-contentful-paint") at.paint ??= performance.timeOrigin + e.startTime;
  }).observe({ type: "paint", buffered: true });
  new MutationObserver(() => {
    if (document.documentElement?.dataset.ready === "1") at.ready ??= now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
})();"""
PAINTED = "window.__bytesProbe?.paint !== undefined"
READY = "window.__bytesProbe?.ready !== undefined"


@dataclass
class Phases:
    """Server-side byte counts of one scenario (bytes; ``None``: phase not reached)."""

    paint: int | None
    ready: int | None
    total: int
    ok: int
    revalidated: int
    twice: dict[str, int]


def _wait(target: Page | Frame, condition: str, timeout_s: float) -> bool:
    """Poll ``condition`` in ``target`` until it holds (True) or ``timeout_s`` passed (False)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if target.evaluate(condition):
                return True
        except Exception:  # a document being replaced: tried again
            pass
        time.sleep(0.05)
    return False


def _moments(target: Page | Frame) -> tuple[float | None, float | None]:
    """(first paint, data-ready) of ``target``'s document in epoch seconds, None if not yet."""
    at = target.evaluate("window.__bytesProbe ?? {}")
    return (
        at["paint"] / 1000 if "paint" in at else None,
        at["ready"] / 1000 if "ready" in at else None,
    )


def _count(log: site_server.Log, start: float, paint: float | None, ready: float | None) -> Phases:
    hits = log.since(start)

    def upto(moment: float | None) -> int | None:
        return None if moment is None else sum(h.bytes for h in hits if h.at <= moment)

    return Phases(
        paint=upto(paint),
        ready=upto(ready),
        total=sum(h.bytes for h in hits),
        ok=sum(h.status == 200 for h in hits),
        revalidated=sum(h.status == 304 for h in hits),
        twice=site_server.duplicates(hits),
    )


def embed(
    context: BrowserContext, host: str, site: str, log: site_server.Log, tap: bool, idle: float
) -> Phases:
    page = context.new_page()
    start = time.time()
    page.goto(host + "host.html")
    game = next(f for f in page.frames if f.url.startswith(site))
    _wait(game, PAINTED, 60)
    if tap:
        page.frame_locator("#game").locator("#board .cell").first.click()
        _wait(game, READY, 120)
        time.sleep(idle)
    else:
        time.sleep(max(0.0, idle - (time.time() - start)))
    result = _count(log, start, *_moments(game))
    page.close()
    return result


def full(context: BrowserContext, site: str, log: site_server.Log, idle: float) -> Phases:
    page = context.new_page()
    start = time.time()
    page.goto(site + "index.html?size=6")
    _wait(page, READY, 120)
    time.sleep(idle)
    result = _count(log, start, *_moments(page))
    page.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=float, default=30, help="seconds left open after ready")
    parser.add_argument("--embed-idle", type=float, default=20, help="untouched embed: seconds")
    parser.add_argument("--flavour", choices=["pages", "plain"], default="pages")
    parser.add_argument("--uncompressed", action="store_true", help="no gzip at the server")
    args = parser.parse_args()
    if not (DIST / "sw.js").is_file():
        print("dist/ is missing: run `npm ci && node scripts/build.mjs` first", file=sys.stderr)
        return 1
    site, log, stop_site = site_server.serve(
        DIST, flavour=args.flavour, compress=not args.uncompressed
    )
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "host.html").write_text(
            HOST_PAGE.format(src=site + "index.html?embed=1&size=5"), "utf-8"
        )
        host, _host_log, stop_host = site_server.serve(Path(tmp))
        load_before = os.getloadavg()
        rows: list[tuple[str, Phases]] = []
        with sync_playwright() as pw:

            def launch(name: str) -> BrowserContext:
                context = pw.chromium.launch_persistent_context(
                    f"{tmp}/{name}",
                    executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                    headless=True,
                    args=ARGS,
                    viewport={"width": 390, "height": 844},
                )
                context.add_init_script(PROBE)
                return context

            for name, tap, idle in (
                ("embed, untouched", False, args.embed_idle),
                ("embed, tapped", True, args.idle),
            ):
                context = launch(name.replace(", ", "-"))
                rows.append((f"{name} ({idle:g} s)", embed(context, host, site, log, tap, idle)))
                context.close()
            context = launch("full")
            rows.append((f"first visit ({args.idle:g} s)", full(context, site, log, args.idle)))
            rows.append((f"returning visit ({args.idle:g} s)", full(context, site, log, args.idle)))
            context.close()
            browser = pw.chromium.launch(
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                headless=True,
                args=ARGS,
            )
            private = browser.new_context(viewport={"width": 390, "height": 844})
            private.add_init_script(PROBE)
            rows.append((f"private window ({args.idle:g} s)", full(private, site, log, args.idle)))
            browser.close()
        stop_host()
    stop_site()
    load_after = os.getloadavg()

    def mb(value: int | None) -> str:
        return "-" if value is None else f"{value / 1e6:.3f}"

    print(
        f"bytes sent by a {args.flavour!r} server "
        f"({'no compression' if args.uncompressed else 'gzip as GitHub Pages'}), MB = 10^6 bytes; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
        f"({os.cpu_count()} CPUs)"
    )
    print(f"{'scenario':28} {'to paint':>9} {'to ready':>9} {'in all':>9} {'200s':>5} {'304s':>5}")
    for name, phases in rows:
        print(
            f"{name:28} {mb(phases.paint):>9} {mb(phases.ready):>9} {mb(phases.total):>9} "
            f"{phases.ok:5d} {phases.revalidated:5d}"
            + (f"  sent twice: {phases.twice}" if phases.twice else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
