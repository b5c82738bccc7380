"""Storage that keeps nothing (docs/reliability.md): a quota of zero from the start (as some
private windows have) and storage that starts refusing in the middle of a game. The game plays,
the page says once that games cannot be kept in this window, and Export this game downloads the
game in play with every move (a library file that "Your games" imports)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from helpers import wait_saved, write
from playwright.sync_api import BrowserContext, Page, expect

NOT_KEPT = "will not be kept after you leave"

#: Every write refused as over quota, from before the page's first script.
ZERO_QUOTA = """Storage.prototype.setItem = function () {
  throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
};"""


def exported(page: Page) -> list[dict[str, object]]:
    """Click Export this game and read the downloaded file's lines."""
    with page.expect_download() as info:
        page.get_by_test_id("notice-export").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert info.value.suggested_filename.startswith("sos-game-")
    return [json.loads(line) for line in text.splitlines()]


def says_once(page: Page) -> None:
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text(NOT_KEPT)
    expect(notice.locator("li")).to_have_count(1)
    expect(notice).not_to_contain_text("Storage is full")
    expect(page.get_by_test_id("notice-games")).to_be_hidden()  # nothing to free
    expect(page.get_by_test_id("notice-export")).to_be_visible()


def test_a_quota_of_zero_plays_says_so_once_and_exports_the_game(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    context = new_context()
    context.add_init_script(ZERO_QUOTA)
    page = context.new_page()
    page.goto(site_url + "index.html?size=4")
    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)
    says_once(page)
    for row, col, letter in ((0, 0, "S"), (1, 1, "O"), (2, 2, "S")):
        write(page, row, col, letter)  # the game plays
    says_once(page)  # still once
    lines = exported(page)
    assert lines[0]["format"] == "sos-library" and lines[0]["games"] == 1
    assert lines[1]["format"] == "sos-game" and lines[1]["line"] == "Sa1Ob2Sc3"
    assert page.evaluate("localStorage.length") == 0


def test_storage_refused_mid_game_says_so_once_and_exports_every_move(
    open_app: Callable[..., Page],
) -> None:
    page = open_app("?size=4")
    write(page, 0, 0, "S")
    write(page, 1, 1, "O")
    game = page.url.split("#g=")[1]
    wait_saved(page, "Sa1Ob2", game)
    expect(page.get_by_test_id("notice")).to_be_hidden()
    page.evaluate(  # the browser stops letting the page write (a setting, a policy)
        """() => { Storage.prototype.setItem = function () {
             throw new DOMException('The operation is insecure.', 'SecurityError'); }; }"""
    )
    write(page, 2, 2, "S")
    says_once(page)
    write(page, 3, 3, "O")
    says_once(page)
    lines = exported(page)
    assert lines[1]["id"] == game and lines[1]["line"] == "Sa1Ob2Sc3Od4"
    stored = json.loads(page.evaluate("(id) => localStorage.getItem('sos-g:' + id)", game))
    assert stored["line"] == "Sa1Ob2"  # the last good save is untouched
