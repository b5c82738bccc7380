"""From a tap on Review to the first verdict and to all of them, at a phone's size.

    nice -n 10 .venv/bin/python benchmarks/bench_review.py [--sizes 5 8] [--throttles 1 4]
        [--seeds 1 2 3]

Serves ``dist/`` (after ``node scripts/build.mjs``) as GitHub Pages does
(benchmarks/site_server.py) and opens, in headless Chromium (``CHROMIUM``, default
/usr/bin/chromium) at 390x844, a random finished general-mode game per seed (``?game=``, a fresh
browser context each time: no review kept), slows the CPU ``--throttle`` times with DevTools
(``Emulation.setCPUThrottlingRate``; 4: a phone), clicks Review and times from the click, in the
page (a ``MutationObserver``): the panel shown, the first verdict in the move list, the summary
and every verdict (``data-source="computed"``). Prints one line per run and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import site_server  # noqa: E402

from sos import Rules, new_game  # noqa: E402
from sos.app.saving.transcript import encode_moves  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMES = """() => new Promise((resolve) => {
  const times = {};
  const panel = document.getElementById('review-panel');
  const seen = () => {
    const now = performance.now() - t0;
    if (!('panel' in times) && !panel.hidden) times.panel = now;
    if (!('first' in times) && document.querySelector('#move-list button.ply[data-verdict]'))
      times.first = now;
    if (panel.dataset.source === 'computed') {
      times.all = now;
      observer.disconnect();
      resolve(times);
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  const t0 = performance.now();
  document.getElementById('review-button').click();
  seen();
})"""


def game_query(size: int, seed: int) -> tuple[str, int]:
    state = new_game(Rules.square(size, "general"))
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return f"?size={size}&mode=general&game={encode_moves(state.history)}", len(state.history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 8])
    parser.add_argument("--throttles", type=float, nargs="+", default=[1.0, 4.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    base, _log, stop = site_server.serve(ROOT / "dist", flavour="pages")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS
        )
        for size in args.sizes:
            for throttle in args.throttles:
                for seed in args.seeds:
                    query, moves = game_query(size, seed)
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    page = context.new_page()
                    page.goto(f"{base}index.html{query}&lang=en")
                    page.wait_for_selector('html[data-ready="1"]', state="attached",
                                           timeout=120_000)
                    if throttle != 1:
                        cdp = context.new_cdp_session(page)
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    page.set_default_timeout(600_000)
                    t = page.evaluate(TIMES)
                    context.close()
                    print(f"{size}x{size} ({moves} moves) CPU {throttle:g}x seed {seed}: "
                          f"panel {t['panel'] / 1000:.2f} s, first verdict "
                          f"{t['first'] / 1000:.2f} s, all {t['all'] / 1000:.2f} s, "
                          f"load {os.getloadavg()[0]:.1f}", flush=True)
        browser.close()
    stop()


if __name__ == "__main__":
    main()
