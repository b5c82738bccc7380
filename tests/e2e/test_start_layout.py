"""The start screen does not move after its first paint (issue 43, item 14): the page drawn
before Python runs (static/boot.js) already has the layout the game keeps once it is up --
the "Play against" row above the board where a new game offers it -- so nothing jumps when
the engine is ready. Measured as the browser's Cumulative Layout Shift (``layout-shift``
entries without recent input, buffered from the page's start), on a phone and a desktop, for
a first visit and for a URL with settings; it must be 0.

These tests each take a browser context of their own (a first visit).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import settle
from playwright.sync_api import Page, expect

#: Layout shifts without recent input, from the page's start (``buffered``), with what moved.
WATCH_SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shifts.push({value: entry.value, at: entry.startTime,
        moved: (entry.sources || []).map((s) => [
          s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?",
          JSON.stringify(s.previousRect), JSON.stringify(s.currentRect)])});
    }
  }).observe({type: "layout-shift", buffered: true});
})();"""

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("query", ["", "?size=5&lang=de"], ids=["first-visit", "settings"])
def test_the_start_screen_does_not_shift_once_the_game_is_up(
    page: Page, site_url: str, shot: Callable[[Page, str], Path], screen: str, query: str
) -> None:
    page.set_viewport_size(SCREENS[screen])
    page.add_init_script(WATCH_SHIFTS)
    page.goto(site_url + "index.html" + query)
    first = page.get_by_test_id("start-choice").bounding_box()
    board = page.locator("#board").bounding_box()
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    expect(page.get_by_test_id("play-computer")).to_be_enabled()
    settle(page)
    shifts: list[dict[str, Any]] = page.evaluate("window.__shifts")
    assert sum(s["value"] for s in shifts) == 0, shifts
    # The row was there from the first paint, and the board has not moved since.
    assert first is not None and first["height"] > 0
    assert page.locator("#board").bounding_box() == board
    shot(page, f"start-{screen}-{'settings' if query else 'first'}")
