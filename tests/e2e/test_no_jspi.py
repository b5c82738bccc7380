"""The game with JSPI hidden from Pyodide (scripts/pyodide-snap.mjs, docs/crash.md).

Chromium ships JSPI (``WebAssembly.Suspending``/``promising``); the page deletes them before
Pyodide loads, so Python starts as in WebKit and older browsers, and so does the worker that makes
the memory snapshot. Checked here in Chromium: Pyodide sees no JSPI, the snapshot is made and
restored in that mode, and the game plays against the computer. Where the properties cannot be
deleted (the crash benchmark keeps JSPI that way, benchmarks/bench_crash.py), Pyodide uses JSPI
and the snapshot is made and restored under a key of its own. Unrouted: the service worker
serves the page as it does for players (the snapshot is made from its cache).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import GRAB_INTERPRETER, cell, no_computer_pause
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.unrouted

#: What the crash benchmark's "JSPI shown" mode adds to every page (bench_crash.KEEP_JSPI).
KEEP_JSPI = """for (const name of ["Suspending", "promising"])
  if (name in WebAssembly) Object.defineProperty(WebAssembly, name, { configurable: false });"""

#: [JSPI in the page's WebAssembly, JSPI as Pyodide saw it, the stored snapshots' URLs].
STATE = """async () => [
  "Suspending" in WebAssembly || "promising" in WebAssembly,
  Boolean(__py._module.jspiSupported),
  (await (await caches.open("sos-snapshot")).keys()).map((request) => request.url),
]"""


def start_twice(page: Page, site_url: str, wait_ready: Callable[..., float]) -> list[object]:
    """A first visit (left open until the snapshot is made), then a reload that restores it; a
    game against the computer is played there. Returns STATE after the reload."""
    page.goto(site_url + "index.html?size=4&seats=human,easy")
    wait_ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
    page.reload()
    wait_ready(page)
    expect(page.locator("html")).to_have_attribute("data-snapshot", "restored")
    page.evaluate(GRAB_INTERPRETER)
    no_computer_pause(page)
    cell(page, 0, 0).click()
    expect(cell(page, 0, 0)).to_have_text("S")
    # the computer answers: a second letter on the board
    expect(page.locator("button.cell:not(:empty)")).to_have_count(2, timeout=30_000)
    result: list[object] = page.evaluate(STATE)
    return result


def test_jspi_hidden_the_snapshot_restores_and_the_game_plays(
    page: Page, site_url: str, wait_ready: Callable[..., float]
) -> None:
    jspi_in_page, jspi_for_pyodide, stored = start_twice(page, site_url, wait_ready)
    assert jspi_in_page is False and jspi_for_pyodide is False
    assert isinstance(stored, list) and len(stored) == 1, stored
    assert stored[0].endswith(".bin") and not stored[0].endswith("-jspi.bin"), stored


def test_jspi_kept_where_it_cannot_be_removed_has_a_snapshot_of_its_own(
    page: Page, site_url: str, wait_ready: Callable[..., float]
) -> None:
    page.context.add_init_script(KEEP_JSPI)
    jspi_in_page, jspi_for_pyodide, stored = start_twice(page, site_url, wait_ready)
    assert jspi_in_page is True and jspi_for_pyodide is True
    assert isinstance(stored, list) and len(stored) == 1 and stored[0].endswith("-jspi.bin")
