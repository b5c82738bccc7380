"""The board limits in the page: the board static/boot.js draws before Python runs, and
the settings form, follow sos/rules.py (through the build's static/vendor/limits.js)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, Route, expect

from sos.app.share.params import DEFAULT_SIZE
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS


def _no_runtime(route: Route) -> None:
    route.fulfill(status=200, content_type="text/javascript", body="export {};")


def test_the_board_drawn_before_python_follows_the_limits(page: Page, site_url: str) -> None:
    # Only boot.js runs: PyScript and Pyodide are replaced by empty modules.
    page.route("**/static/vendor/pyscript/core.js", _no_runtime)
    page.route("**/static/vendor/pyodide/pyodide-snap.mjs", _no_runtime)
    sizes = {
        str(MIN_APP_SIZE): MIN_APP_SIZE,
        str(MAX_APP_SIZE): MAX_APP_SIZE,
        str(MIN_APP_SIZE - 1): DEFAULT_SIZE,
        str(MAX_APP_SIZE + 1): DEFAULT_SIZE,
        "x": DEFAULT_SIZE,
    }
    for raw, size in sizes.items():
        page.goto(f"{site_url}index.html?size={raw}")
        expect(page.locator("#board button.cell[data-row][data-col]")).to_have_count(size * size)
        expect(page.locator("#board .board-row")).to_have_count(size)


def test_the_settings_offer_exactly_the_limits(open_app: Callable[..., Page]) -> None:
    page = open_app(f"?size={MAX_APP_SIZE}&players={MAX_PLAYERS}")
    expect(page.locator("#board .cell")).to_have_count(MAX_APP_SIZE * MAX_APP_SIZE)
    page.get_by_test_id("settings").click()
    sizes = page.get_by_test_id("settings-size").locator("option")
    players = page.get_by_test_id("settings-players").locator("option")
    values = sizes.evaluate_all("options => options.map(o => o.value)")
    assert values == [str(n) for n in range(MIN_APP_SIZE, MAX_APP_SIZE + 1)]
    assert players.all_inner_texts() == [str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    expect(page.get_by_test_id("settings-size")).to_have_value(str(MAX_APP_SIZE))
    expect(page.get_by_test_id("settings-players")).to_have_value(str(MAX_PLAYERS))
