"""Nothing lost (issue 25) in the real page: three tabs of one game racing (with and without
Web Locks), damaged and newer entries kept and listed, a storage cleared by another tab, and a
library of 10 000 games. A first version's save of a board no longer played, listed and
deleted with an undo: tests/app/test_saves.py (the list's Delete and Undo: test_library.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from helpers import wait_saved, write
from playwright.sync_api import BrowserContext, Page, expect

from sos.app.saving.library import load_game

Opener = Callable[..., Page]

# Every board the page shows, as a string of its squares ("." for an empty one), recorded
# after each DOM change of the game's board.
BOARDS = """
window.__boards = [];
addEventListener('DOMContentLoaded', () => {
  const board = document.getElementById('board');
  if (!board) return;
  new MutationObserver(() => {
    if (document.documentElement.dataset.ready !== '1') return;
    const cells = [...board.querySelectorAll('button.cell')];
    window.__boards.push(cells.map((c) => c.textContent || '.').join(''));
  }).observe(board, { subtree: true, childList: true, characterData: true });
});
"""
# At wall time `at`, write the selected letter on the first empty square from `start`.
CLICK_AT = """([at, start]) => setTimeout(() => {
  const cells = [...document.querySelectorAll('#board button.cell')];
  for (let k = 0; k < cells.length; k++) {
    const cell = cells[(start + k) % cells.length];
    if (!cell.textContent) { cell.click(); break; }
  }
  window.__clicks = (window.__clicks || 0) + 1;
}, Math.max(0, at - Date.now()))"""
NO_LOCKS = """Object.defineProperty(Navigator.prototype, 'locks',
  { get: () => undefined, configurable: true });"""


def ready(page: Page) -> None:
    page.wait_for_selector('html[data-ready="1"]', timeout=90_000)


def storage(page: Page) -> dict[str, str]:
    return dict(page.evaluate("() => ({...localStorage})"))


def wait_stored(page: Page, key: str, value: str | None) -> None:
    """Wait until storage holds ``value`` under ``key`` (``None``: no such key)."""
    page.wait_for_function(
        "([key, value]) => localStorage.getItem(key) === value", arg=[key, value]
    )


def positions(games: dict[str, str], size: int) -> set[str]:
    """Every position along every line of every readable stored game, as board strings."""
    found = set()
    for key, text in games.items():
        if not key.startswith("sos-g:"):
            continue
        record = load_game(text)
        for line in record.lines():
            board = ["."] * (size * size)
            found.add("".join(board))
            for action in line:
                board[action.row * size + action.col] = action.letter
                found.add("".join(board))
    return found


def settle(page: Page) -> dict[str, str]:
    """The storage once no tab has written for a while."""
    before = storage(page)
    for _ in range(60):
        time.sleep(1.0)
        now = storage(page)
        if now == before:
            return now
        before = now
    raise AssertionError("storage never settled")


@pytest.mark.parametrize("locks", [True, False], ids=["web-locks", "no-locks"])
def test_three_tabs_of_one_game_racing_lose_nothing(
    new_context: Callable[..., BrowserContext], site_url: str, locks: bool
) -> None:
    size, rounds = 8, 12
    context = new_context()
    if not locks:
        context.add_init_script(NO_LOCKS)
    context.add_init_script(BOARDS)
    tabs = [context.new_page() for _ in range(3)]
    for number, page in enumerate(tabs):
        page.bring_to_front()  # a tab opened is in front (headless Chromium draws only that
        # one's frames: a tab behind takes seconds more to start)
        page.goto(tabs[0].url if number else site_url + f"index.html?size={size}")
        ready(page)
    assert tabs[0].evaluate("() => !!navigator.locks") is locks
    for number in range(1, rounds + 1):
        at = tabs[0].evaluate("Date.now()") + 120
        for index, page in enumerate(tabs):
            page.evaluate(CLICK_AT, [at, index * 21 + number])
        for page in tabs:
            page.wait_for_function("(n) => window.__clicks >= n", arg=number)
    stored = settle(tabs[0])
    kept = positions(stored, size)
    shown = [board for page in tabs for board in page.evaluate("window.__boards")]
    assert len(shown) >= 3 * rounds
    lost = [board for board in shown if board not in kept]
    assert not lost, f"{len(lost)} of {len(shown)} positions shown are in no stored game"
    # Each tab's own moves: at least one stored line is as long as the rounds played.
    games = [load_game(text) for key, text in stored.items() if key.startswith("sos-g:")]
    assert max(len(game.line) for game in games) >= rounds


def _game(game_id: str, line: str = "Sa1Ob1", **changes: Any) -> str:
    data = {
        "format": "sos-game", "version": 2, "id": game_id, "rows": 4, "cols": 4,
        "mode": "general", "players": 2, "seats": ["human", "human"], "line": line,
        "cursor": len(line) // 3, "variations": [], "created": 1.7e12, "updated": 1.7e12,
        "rev": 1, "origin": "new",
    }  # fmt: skip
    data.update(changes)
    return json.dumps(data, separators=(",", ":"))


UNREADABLE = {
    "sos-g:cut": _game("cut")[:70],
    "sos-g:newer": _game("newer", version=3, line={"moves": "Sa1"}),
    "sos-g:side": _game("side", variations=["Sa1Sa1"]),  # an illegal move in a side line
    "sos-g:wrongid": _game("other"),
}


def test_damaged_and_newer_entries_are_kept_listed_and_named(
    open_app: Opener, new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    page = open_app("?size=4")
    write(page, 0, 0, "S")
    page.evaluate(
        "(all) => { for (const [k, v] of Object.entries(all)) localStorage.setItem(k, v); }",
        UNREADABLE,
    )
    page.goto(site_url + "index.html#g=side")
    ready(page)
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text("The saved game “side” is damaged and cannot be opened.")
    expect(page.locator("#board button.cell:has-text('S')")).to_have_count(1)  # the last game
    write(page, 1, 1, "O")
    page.get_by_test_id("games").click()
    entries = page.get_by_test_id("game-entry")
    expect(entries).to_have_count(5)
    kinds = {e.get_attribute("data-game-id"): e.get_attribute("data-kind") for e in entries.all()}
    assert {k: v for k, v in kinds.items() if v} == {
        "cut": "damaged", "newer": "newer", "side": "damaged", "wrongid": "damaged"
    }  # fmt: skip
    newer = page.locator("[data-testid=game-entry][data-game-id=newer]")
    expect(newer).to_contain_text("cannot be opened by this version. Reload the page to update.")
    expect(newer.get_by_test_id("game-reload")).to_be_visible()
    cut = page.locator("[data-testid=game-entry][data-game-id=cut]")
    expect(cut).to_contain_text("Cannot be opened by this version")
    with page.expect_download() as download:
        cut.get_by_test_id("game-download").click()
    path = download.value.path()
    assert path is not None
    with open(path, encoding="utf-8") as saved:
        assert saved.read() == UNREADABLE["sos-g:cut"]
    page.keyboard.press("Escape")
    page.get_by_test_id("new-game").click()
    gid = page.url.split("#g=")[1]
    write(page, 2, 2, "S")
    wait_saved(page, "Sc3", gid)  # the saves of this page so far have landed
    stored = storage(page)
    for key, text in UNREADABLE.items():  # never removed, never written over
        assert stored[key] == text
    # An older build holding a game that a newer build then rewrote keeps its moves apart.
    newer_text = _game(gid, "Sc3", version=3)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["sos-g:" + gid, newer_text])
    write(page, 3, 3, "O")
    expect(notice).to_contain_text("can no longer be read by this version")
    assert storage(page)["sos-g:" + gid] == newer_text
    assert page.url.split("#g=")[1] != gid


def test_a_storage_cleared_by_another_tab_gets_the_open_games_back(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    context = new_context()
    one, two, three = (context.new_page() for _ in range(3))
    for page, size in ((one, 4), (two, 5), (three, 6)):
        # The tab a player uses is the one in front (headless Chromium draws frames only for
        # that one: a tab behind takes seconds to start and to show a move).
        page.bring_to_front()
        page.goto(site_url + f"index.html?size={size}")
        ready(page)
        write(page, 0, 0, "S")
        write(page, 1, 1, "O")
    ids = {page: page.url.split("#g=")[1] for page in (one, two, three)}
    three.evaluate("localStorage.clear()")  # another tab's clear (or "clear site data")
    back = "(id) => localStorage.getItem('sos-g:' + id) !== null"
    for page in (one, two):  # the storage event with key == null
        three.wait_for_function(back, arg=ids[page])
        expect(page.get_by_test_id("notice")).to_contain_text("the game shown here was saved again")
    # The tab that cleared gets no storage event: it checks when it is shown or focused.
    three.evaluate("window.dispatchEvent(new Event('focus'))")
    three.wait_for_function(back, arg=ids[three])
    # Each game is back whole, under its own id (what a reload would open).
    for page in (one, two, three):
        wait_saved(three, "Sa1Ob2", ids[page])
        assert page.url.split("#g=")[1] == ids[page]


def test_games_written_behind_the_index_are_found_after_the_start(
    open_app: Opener, site_url: str
) -> None:
    """A build without the index removes one game and adds another: the key count stays the
    same, so only the page's key check after its start finds them."""
    page = open_app("?size=4")
    write(page, 0, 0, "S")
    gone = page.url.split("#g=")[1]
    page.get_by_test_id("new-game").click()
    write(page, 1, 1, "O")
    page.evaluate(
        "([gone, text]) => { localStorage.removeItem('sos-g:' + gone);"
        " localStorage.setItem('sos-g:behind', text); }",
        [gone, _game("behind", "Sa1Ob1Sc1")],
    )
    page.reload()
    ready(page)
    # The key check runs 3 s after the start and redraws the open list with what it found.
    page.get_by_test_id("games").click()
    behind = page.locator("[data-testid=game-entry][data-game-id=behind]")
    expect(behind).to_contain_text("3 moves", timeout=20_000)
    expect(page.get_by_test_id("game-entry")).to_have_count(2)
    expect(page.get_by_test_id("games-count")).to_be_hidden()


FILL = """([count, size]) => {
  const letters = ['Sa1', 'Ob1', 'Sc1', 'Od2', 'Se3'];
  for (let n = 0; n < count; n++) {
    const line = letters.slice(0, 1 + (n % 5)).join('');
    localStorage.setItem('sos-g:big' + n, JSON.stringify({format: 'sos-game', version: 2,
      id: 'big' + n, rows: size, cols: size, mode: 'general', players: 2,
      seats: ['human', 'human'], line, cursor: line.length / 3, variations: [],
      created: 1.6e12 + n * 1000, updated: 1.6e12 + n * 1000, rev: 1, origin: 'new'}));
  }
}"""


def test_a_library_of_10000_games_lists_a_page_at_a_time(open_app: Opener, site_url: str) -> None:
    page = open_app("?size=6")
    page.evaluate("localStorage.clear()")
    page.evaluate(FILL, [10_000, 6])
    page.goto(site_url + "index.html")
    ready(page)  # the first start builds the index (reads each game once)
    assert page.url.endswith("#g=big9999")
    page.reload()
    ready(page)
    assert page.url.endswith("#g=big9999")
    page.get_by_test_id("games").click()
    entries = page.get_by_test_id("game-entry")
    expect(entries).to_have_count(30)
    expect(page.get_by_test_id("games-count")).to_have_text("30 of 10000")
    page.get_by_test_id("games-more").click()
    expect(entries).to_have_count(60)
    expect(entries.nth(59)).to_have_attribute("data-game-id", "big9940")
    page.keyboard.press("Escape")
    page.get_by_test_id("new-game").click()
    expect(page.locator("#board button.cell:has-text('S')")).to_have_count(0)
    write(page, 0, 0, "S")
    page.get_by_test_id("games").click()
    expect(entries.first).to_have_attribute("data-game-id", page.url.split("#g=")[1])
    expect(page.get_by_test_id("games-count")).to_have_text("30 of 10001")


YEAR_10000 = 253_402_300_800 + 36 * 3600  # 10000-01-02 12:00 UTC, in seconds
NOW = 1_764_650_000  # 2025-12-02


def play(page: Page, row: int, col: int, letter: str) -> None:
    """``write`` on the game's board (the puzzle dialog has a board of its own)."""
    page.get_by_test_id(f"letter-{letter}").click()
    square = page.locator(f"#board button.cell[data-row='{row}'][data-col='{col}']")
    square.click()
    expect(square).to_have_text(letter)


@pytest.mark.fresh_context  # page.clock installs its fake timers in the whole context
def test_a_clock_far_ahead(page: Page, site_url: str) -> None:
    """A clock that jumps to the year 10 000 while the page runs: the daily puzzle says the
    date is unusable, the other puzzles open; a game saved then is not "most recent" for ever
    once the clock is right again. (A start at that date: tests/e2e/test_boot_errors.py.)"""
    page.clock.install(time=NOW)
    page.goto(site_url + "index.html?size=4")
    ready(page)
    play(page, 0, 0, "S")
    first = page.url.split("#g=")[1]
    page.clock.set_system_time(YEAR_10000)  # the clock jumps ahead
    page.get_by_test_id("new-game").click()
    play(page, 1, 1, "O")
    ahead = page.url.split("#g=")[1]
    page.get_by_test_id("puzzles").click()  # the other puzzles work
    dialog = page.locator("#puzzle-dialog")
    expect(dialog).to_have_attribute("open", "")
    page.locator("#puzzle-daily").click()
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text("The daily puzzle needs this device's date")
    expect(notice).to_contain_text("10000-01-02")
    page.keyboard.press("Escape")
    expect(dialog).not_to_have_attribute("open", "")
    page.clock.set_system_time(NOW + 60)  # the clock is right again
    page.get_by_test_id("games").click()
    page.locator(f"[data-testid=game-entry][data-game-id='{first}'] [data-open]").click()
    play(page, 2, 2, "S")
    page.goto(site_url + "index.html")
    ready(page)
    assert page.url.split("#g=")[1] == first != ahead
