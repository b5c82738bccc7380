"""A long session: 50 complete computer-vs-computer games on 6x6 in one page, without leaks.

Memory is read after game 5 (warm-up: the AI imported, caches and the DOM at their working
size) and after game 50, each time after a full garbage collection of both heaps:

- the JS heap (DevTools protocol: ``HeapProfiler.collectGarbage``, then
  ``Performance.getMetrics``' ``JSHeapUsedSize``; ``performance.memory`` is too coarse),
- Pyodide's WebAssembly memory (``HEAPU8.length``: it only grows, so growth = a leak or a new
  high-water mark), and the number of objects Python's garbage collector tracks (after
  ``gc.collect()``), which sees a Python-side leak long before the wasm memory has to grow
  (``sys.getallocatedblocks`` reads 0 under Pyodide's allocator),
- DOM nodes and JS event listeners (the App's handler proxies are created once, in App._on).

Pace: the page waits 0.45 s before each computer move so people can follow a chain of extra
turns (``sos.web.computer.COMPUTER_PAUSE``). The test sets it to 0 from outside, through PyScript's
own handle on the interpreter (``whenDefined("py")``), instead of a ``pace=`` URL parameter:
that would be one more input for every visitor's link to validate and document, for a
test's sake. Nothing in the page changes for this test.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

Opener = Callable[..., Page]

GAMES = 50
WARM_UP = 5
MAX_GROWTH = 0.10

#: Expose PyScript's interpreter as window.__py (the same module instance the page loaded).
GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""
PY_MEMORY = """() => __py.runPython(`
import gc
import sos.web.guard
gc.collect()
[len(gc.get_objects()), len(sos.web.guard._proxies), len(sos.web.guard._background)]
`).toJs()"""


def _measure(page: Page, cdp: Any) -> dict[str, float]:
    objects, proxies, tasks = page.evaluate(PY_MEMORY)
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {
        "js_heap": metrics["JSHeapUsedSize"],
        "wasm": page.evaluate("__py._module.HEAPU8.length"),
        "py_objects": objects,
        "proxies": proxies,
        "tasks": tasks,
        "nodes": metrics["Nodes"],
        "listeners": metrics["JSEventListeners"],
    }


def test_fifty_computer_games_do_not_leak(open_app: Opener) -> None:
    page = open_app("?size=6&seats=easy,medium")
    page.evaluate(GRAB_INTERPRETER)
    page.evaluate("__py.runPython('import sos.web.computer; sos.web.computer.COMPUTER_PAUSE = 0')")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("HeapProfiler.enable")
    readings: dict[int, dict[str, float]] = {}
    start = time.monotonic()
    for game in range(1, GAMES + 1):
        page.wait_for_selector("#result:not([hidden])", timeout=60_000)
        filled = page.locator("button.cell:has-text('S'), button.cell:has-text('O')").count()
        assert filled == 36, f"game {game} ended with {filled} squares written"
        if game in (WARM_UP, GAMES):
            readings[game] = _measure(page, cdp)
        if game < GAMES:
            page.get_by_test_id("play-again").click()
    seconds = time.monotonic() - start
    warm, last = readings[WARM_UP], readings[GAMES]
    growth = {k: (last[k] - warm[k]) / warm[k] if warm[k] else 0.0 for k in warm}
    report = "\n".join(
        f"  {k:10} game {WARM_UP}: {warm[k]:>12,.0f}  game {GAMES}: {last[k]:>12,.0f}  "
        f"{growth[k]:+.1%}"
        for k in warm
    )
    print(f"\n{GAMES} games of 6x6 easy vs medium in {seconds:.0f} s\n{report}")
    for key in ("js_heap", "wasm", "py_objects", "nodes"):
        assert growth[key] < MAX_GROWTH, f"{key} grew {growth[key]:.1%}\n{report}"
    # Event handlers: one proxy each, made once; no listener or task piles up per move.
    assert last["proxies"] == warm["proxies"]
    # Listeners may only go down (a one-off listener of the start, e.g. the first screen's
    # start choice or the static board's, removed later); a leak makes them grow.
    assert last["listeners"] <= warm["listeners"], report
    assert last["tasks"] <= 1
