"""The start choice after a tap before the engine is ready (issue 43, item 9): on a first visit
a square tapped before ``data-ready`` becomes the game's first move, and "Play against" stays
offered -- drawn from the first paint, never hidden and shown again -- until someone replies.
Choosing "the computer" then keeps that move, gives the game in play a computer seat, and the
computer answers; a reload shows that game (same move, same seats).

The runtime's wasm is held back by a route (:class:`test_lazy_start.Held`), so the tap happens
before the game is up. These tests each take a browser context of their own (a first visit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import cell, wait_saved
from playwright.sync_api import Page, expect
from test_lazy_start import Held

from sos.app.text.i18n import text

#: Every change of the start choice's ``hidden`` attribute, from the page's start.
WATCH_CHOICE = """(() => {
  window.__choice = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.id === "start-choice") window.__choice.push(r.target.hidden);
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["hidden"]});
})();"""

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}

#: The saved games: [line, seats] of each ``sos-g:`` entry.
SAVED = """Object.keys(localStorage).filter((k) => k.startsWith("sos-g:"))
  .map((k) => JSON.parse(localStorage.getItem(k))).map((r) => [r.line, r.seats])"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_after_a_tap_before_ready_the_computer_can_still_be_chosen(
    page: Page, site_url: str, shot: Callable[[Page, str], Path], screen: str
) -> None:
    page.set_viewport_size(SCREENS[screen])
    page.add_init_script(WATCH_CHOICE)
    held = Held(page)
    page.goto(site_url + "index.html")  # a first visit: a new game
    choice = page.get_by_test_id("start-choice")
    expect(choice).to_be_visible()
    board = page.locator("#board").bounding_box()
    cell(page, 2, 2).click()
    expect(cell(page, 2, 2)).to_have_text("S")
    assert page.evaluate("document.documentElement.dataset.ready") is None
    held.release()
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    wait_saved(page, "Sc3")

    # Still offered, as it was drawn: never hidden since the first paint, the board unmoved.
    expect(choice).to_be_visible()
    expect(page.get_by_test_id("play-here")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("status")).to_have_text(
        text("en", "status.turn", name=text("en", "player.name", n=2))
    )
    assert page.evaluate("window.__choice") == [False]
    assert page.locator("#board").bounding_box() == board
    shot(page, f"early-choice-{screen}")

    page.get_by_test_id("play-computer").click()
    second = page.locator('#players .player[data-player="1"]')
    expect(second).not_to_have_attribute("data-kind", "human")
    plies = page.get_by_test_id("move-list").locator("button.ply")
    expect(plies).to_have_count(2, timeout=30_000)  # the computer answered the early move
    expect(cell(page, 2, 2)).to_have_text("S")
    expect(choice).to_be_hidden()  # a game under way
    page.wait_for_function(
        """() => Object.keys(localStorage).filter((k) => k.startsWith("sos-g:"))
             .map((k) => JSON.parse(localStorage.getItem(k)))
             .some((r) => r.line.startsWith("Sc3") && r.line.length > 3)"""
    )
    saved: list[Any] = page.evaluate(SAVED)
    assert len(saved) == 1, saved  # the game in play took the seats: no copy, nothing left over
    line, seats = saved[0]
    assert line.startswith("Sc3") and seats[0] == "human" and seats[1] != "human", saved
    shot(page, f"early-choice-computer-{screen}")

    page.reload()
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    expect(cell(page, 2, 2)).to_have_text("S")
    expect(plies).to_have_count(2)
    expect(second).not_to_have_attribute("data-kind", "human")
    expect(choice).to_be_hidden()
    assert json.dumps(page.evaluate(SAVED)) == json.dumps(saved)


def test_a_reload_after_the_first_move_draws_the_choice_from_the_first_paint(
    page: Page, site_url: str
) -> None:
    """The saved game has its first move alone: boot.js draws the choice before Python runs,
    and Python keeps it (it is never hidden, the board does not move)."""
    page.add_init_script(WATCH_CHOICE)
    page.goto(site_url + "index.html")
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    cell(page, 0, 0).click()
    wait_saved(page, "Sa1")
    held = Held(page)
    page.reload()
    expect(page.get_by_test_id("start-choice")).to_be_visible()
    board = page.locator("#board").bounding_box()
    held.release()
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    expect(cell(page, 0, 0)).to_have_text("S")
    expect(page.get_by_test_id("start-choice")).to_be_visible()
    assert page.evaluate("window.__choice") == [False]
    assert page.locator("#board").bounding_box() == board
