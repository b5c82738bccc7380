"""From a tap on Review to the first verdict and to all of them, at a phone's size.

    nice -n 10 .venv/bin/python benchmarks/bench_review.py [--sizes 5 8] [--throttles 1 4]
        [--seeds 1 2 3] [--cpython] [--total NODES]

Serves ``dist/`` (after ``node scripts/build.mjs``) as GitHub Pages does
(benchmarks/site_server.py) and opens, in headless Chromium (``CHROMIUM``, default
/usr/bin/chromium) at 390x844, a random finished general-mode game per seed (``?game=``, a fresh
browser context each time: no review kept), slows the CPU ``--throttle`` times with DevTools
(``Emulation.setCPUThrottlingRate``; 4: a phone), clicks Review and times from the click, in the
page (a ``MutationObserver``): the panel shown, the first verdict in the move list, the summary
and every verdict (``data-source="computed"``). Prints one line per run and the load average.

``--cpython``: the same games reviewed in this CPython instead (no browser): CPU seconds to the
first verdict and to the whole review, the node budget of each estimate
(:func:`sos.ai.review.estimate_budget`), and the verdicts' agreement with a review whose
estimates get :data:`sos.ai.review.ESTIMATE_NODES` each (the budget before it was shared);
``--total`` sets the shared budget (``sos.ai.review.ESTIMATE_TOTAL``).
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


def review_cpython(size: int, seed: int, total: int | None) -> tuple[float, float, list[str]]:
    """CPU seconds to the first verdict and to the whole review, and the verdicts."""
    import time

    from sos.ai.review import Progress, review_steps
    from sos.state import replay

    state = new_game(Rules.square(size, "general"))
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    progress = Progress()
    steps = review_steps(replay(state.rules, state.history), progress, estimate_total=total)
    start, first = time.process_time(), -1.0
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            review = stop.value
            break
        if first < 0 and progress.plies:
            first = time.process_time() - start
    return first, time.process_time() - start, [p.verdict for p in review.plies]


def cpython(args: argparse.Namespace) -> None:
    from sos.ai.review import ESTIMATE_TOTAL, estimate_budget

    total = args.total or ESTIMATE_TOTAL
    for size in args.sizes:
        for seed in args.seeds:
            first, whole, verdicts = review_cpython(size, seed, total)
            _, before, old = review_cpython(size, seed, None)
            same = sum(a == b for a, b in zip(verdicts, old, strict=True))
            estimated = max(0, size * size - 16)
            print(f"{size}x{size} ({len(verdicts)} moves) seed {seed}: first verdict "
                  f"{first:.2f} s, all {whole:.2f} s CPU ({estimate_budget(estimated, total=total)}"
                  f" nodes an estimate); unshared {before:.2f} s; the same verdict in "
                  f"{same}/{len(verdicts)}, load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 8])
    parser.add_argument("--throttles", type=float, nargs="+", default=[1.0, 4.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--cpython", action="store_true", help="review in CPython, no browser")
    parser.add_argument("--total", type=int, default=0, help="estimate nodes of a review")
    args = parser.parse_args()
    if args.cpython:
        cpython(args)
        return
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
