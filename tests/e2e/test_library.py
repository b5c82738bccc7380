"""Games are never lost (issue 11): each way the first version lost a game, now keeping it --
New game, Back/Forward, two tabs, a full storage, a move from an earlier position, the embed's
"Open the full game" -- and the "Your games" list. Which game a URL with settings, a shared
link or an imported record opens, and the full storage's notice in each language, are tested
under CPython (tests/app/test_restore.py, test_app.py, test_tab.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from helpers import cell, wait_saved, write
from playwright.sync_api import BrowserContext, Page, expect
from test_experience import _axe

Opener = Callable[..., Page]
WRITTEN = "button.cell:has-text('S'), button.cell:has-text('O')"


def stored_games(page: Page) -> list[dict[str, Any]]:
    """Every game in the page's localStorage (the library's own keys)."""
    raw = page.evaluate(
        """() => Object.keys(localStorage).filter(k => k.startsWith('sos-g:'))
                 .map(k => localStorage.getItem(k))"""
    )
    return [json.loads(text) for text in raw]


def game_id(page: Page) -> str:
    match = re.search(r"#g=([a-z0-9]+)", page.url)
    assert match, page.url
    return match.group(1)


def ready(page: Page) -> None:
    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)


def test_new_game_keeps_the_old_one_back_and_forward(open_app: Opener) -> None:
    page = open_app("?size=4")
    write(page, 0, 0, "S")
    first = game_id(page)
    page.get_by_test_id("new-game").click()
    expect(page.locator(WRITTEN)).to_have_count(0)
    second = game_id(page)
    assert second != first
    page.go_back()
    expect(page.locator(WRITTEN)).to_have_count(1)
    expect(cell(page, 0, 0)).to_have_text("S")
    assert game_id(page) == first
    page.go_forward()
    expect(page.locator(WRITTEN)).to_have_count(0)
    # The list shows both; opening the first from it brings its moves back.
    page.get_by_test_id("games").click()
    entries = page.get_by_test_id("game-entry")
    expect(entries).to_have_count(2)
    entry = page.locator(f'[data-testid=game-entry][data-game-id="{first}"]')
    expect(entry).to_contain_text("4 × 4 · general · 2 players")
    expect(entry).to_contain_text("1 move · Player 2 to move")
    entry.locator(".game-open").click()
    expect(page.locator("#games-dialog")).to_be_hidden()
    expect(cell(page, 0, 0)).to_have_text("S")


def test_delete_from_the_list_and_undo(open_app: Opener) -> None:
    page = open_app("?size=3")
    write(page, 1, 1, "O")
    first = game_id(page)
    page.get_by_test_id("new-game").click()
    write(page, 0, 0, "S")
    page.get_by_test_id("games").click()
    entry = page.locator(f'[data-testid=game-entry][data-game-id="{first}"]')
    _axe(page, "games list")
    entry.get_by_test_id("game-delete").click()
    expect(entry).to_have_count(0)
    _axe(page, "games list after a delete")
    page.wait_for_function("(id) => localStorage.getItem('sos-g:' + id) === null", arg=first)
    page.get_by_test_id("games-undo-delete").click()
    expect(entry).to_have_count(1)
    wait_saved(page, "Ob2", first)


def test_move_from_an_earlier_position_keeps_the_old_continuation(open_app: Opener) -> None:
    page = open_app("?size=4")
    for row, col, letter in ((0, 0, "S"), (0, 2, "S"), (3, 3, "O")):
        write(page, row, col, letter)
    page.locator("#move-list button.ply").nth(0).click()  # back to after S@a1
    write(page, 2, 2, "S")
    expect(page.locator("#move-list button.ply")).to_have_text(["S@a1", "S@c3"])
    other = page.get_by_test_id("other-line")
    expect(other).to_have_count(1)
    expect(other).to_have_text("From move 2, S@c1: 3 moves in all")
    other.click()
    expect(page.locator("#move-list button.ply")).to_have_text(["S@a1", "S@c1", "O@d4"])
    expect(page.get_by_test_id("other-line")).to_have_text("From move 2, S@c3: 2 moves in all")
    page.reload()
    ready(page)
    expect(page.locator(WRITTEN)).to_have_count(3)
    expect(page.get_by_test_id("other-line")).to_have_count(1)


def test_two_tabs_follow_each_other_and_never_lose_a_move(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    context = new_context()
    # A switch to make a tab deaf to the other's storage events, to stage the race where both
    # move before either hears of the other.
    context.add_init_script(
        """const add = window.addEventListener.bind(window);
        window.addEventListener = (type, listener, ...rest) => add(type, type !== 'storage'
          ? listener : (event) => { if (!window.__deaf) listener(event); }, ...rest);"""
    )
    one = context.new_page()
    one.goto(site_url + "index.html?size=4")
    ready(one)
    write(one, 0, 0, "S")
    two = context.new_page()
    two.goto(one.url)
    ready(two)
    expect(cell(two, 0, 0)).to_have_text("S")
    write(two, 0, 2, "S")
    expect(cell(one, 0, 2)).to_have_text("S")  # tab one followed without a reload
    # The tab a player uses is the one in front (headless Chromium draws frames only for
    # that one: a move in a tab behind takes seconds to show).
    one.bring_to_front()
    write(one, 3, 3, "O")
    expect(cell(two, 3, 3)).to_have_text("O")

    # Both continue differently before either hears of the other: the later one is a copy.
    for page in (one, two):
        page.evaluate("window.__deaf = true")
    write(one, 1, 1, "S")
    two.bring_to_front()
    write(two, 2, 2, "O")
    expect(two.get_by_test_id("notice")).to_contain_text("kept as a separate game")
    wait_saved(one, "Sa1Sc1Od4Sb2")
    wait_saved(one, "Sa1Sc1Od4Oc3")
    assert game_id(one) != game_id(two)


def test_full_storage_says_so_and_keeps_the_last_good_save(open_app: Opener) -> None:
    page = open_app("?size=5")
    write(page, 0, 0, "S")
    write(page, 0, 1, "O")
    wait_saved(page, "Sa1Ob1", game_id(page))  # saved before the storage fills up
    filled = page.evaluate(
        """() => {  // another app of the origin fills the storage until it throws
          const chunk = 'x'.repeat(64 * 1024); let n = 0;
          try { for (;;) localStorage.setItem('other-app-' + n++, chunk); } catch (e) {}
          let small = 'x'.repeat(1024);
          try { for (;;) localStorage.setItem('other-app-' + n++, small); } catch (e) {}
          try { for (;;) localStorage.setItem('other-app-' + n++, 'x'); }
          catch (e) { return e.name; }
        }"""
    )
    assert filled == "QuotaExceededError"
    # A few bytes may be left: each move makes the saved game 3 characters longer.
    notice = page.get_by_test_id("notice")
    this = game_id(page)
    saved, line = 2, "Sa1Ob1"
    for col in range(5):
        write(page, 4, col, "S")
        line += "S" + "abcde"[col] + "5"
        # The save lands a task after the move (under the library's lock): wait until it has
        # either stored the line or failed (the notice says so).
        page.wait_for_function(
            """([id, line]) => !document.getElementById('notice').hidden
                 || JSON.parse(localStorage.getItem('sos-g:' + id) || 'null')?.line === line""",
            arg=[this, line],
        )
        if notice.is_visible():
            break
        saved += 1
    expect(notice).to_contain_text("Storage is full: this game is not being saved.")
    page.get_by_test_id("notice-games").click()  # it opens "Your games", to free space
    expect(page.locator("#games-dialog")).to_be_visible()
    page.reload()
    ready(page)
    expect(page.locator(WRITTEN)).to_have_count(saved)  # the last good save, not an empty game
    expect(page.get_by_test_id("notice")).not_to_contain_text("does not let the game save")
    # Freeing space (here: the other app's data) lets the game save again.
    page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('other-app-'))"
        ".forEach(k => localStorage.removeItem(k))"
    )
    assert game_id(page) == this
    line = next(g["line"] for g in stored_games(page) if g["id"] == this)
    assert len(line) == 3 * saved
    write(page, 2, 2, "O")
    expect(page.get_by_test_id("notice")).to_be_hidden()
    wait_saved(page, line + "Oc3", this)


def test_embed_opens_the_same_game_in_the_full_page(
    open_app: Opener, new_context: Callable[..., BrowserContext]
) -> None:
    page = open_app("?embed=1&size=5")
    write(page, 2, 2, "S")
    write(page, 2, 3, "O")
    link = page.get_by_test_id("open-full")
    expect(link).to_have_attribute("href", re.compile(r"^(?!.*embed)(?=.*game=Sc3Od3)"))
    href = link.get_attribute("href")
    assert href and "embed" not in href and "game=Sc3Od3" in href
    embedded = game_id(page)
    # Same browser storage: the very same game.
    page.goto(href)
    ready(page)
    expect(page.locator(WRITTEN)).to_have_count(2)
    assert game_id(page) == embedded
    # A partitioned storage (a cross-site frame) cannot share it: the moves come with the link.
    other = new_context().new_page()
    other.goto(href)
    ready(other)
    expect(cell(other, 2, 2)).to_have_text("S")
    expect(cell(other, 2, 3)).to_have_text("O")
    expect(other.get_by_test_id("status")).to_have_text("Player 1 to move")


def test_your_games_offers_a_search_once_it_holds_many_games(open_app: Opener) -> None:
    """The wiring of the search (its policy: tests/app/test_games_list.py): shown from ten
    lines on, typing filters the list, an empty result says so, reopening shows everything."""
    page = open_app("?size=3")
    page.get_by_test_id("games").click()
    expect(page.get_by_test_id("games-search")).to_be_hidden()
    page.locator("[data-close=games-dialog]").click()
    for _ in range(10):  # ten games with a move, then the eleventh: a 4 × 4
        write(page, 1, 1, "O")
        page.get_by_test_id("new-game").click()
        expect(page.locator(WRITTEN)).to_have_count(0)
    page.goto(page.url.split("?")[0] + "?size=4")
    ready(page)
    write(page, 0, 0, "S")
    page.get_by_test_id("games").click()
    search = page.get_by_test_id("games-search")
    expect(search).to_be_visible()
    expect(page.get_by_test_id("game-entry")).to_have_count(11)  # the empty 3 × 3 is tidied away
    search.fill("4x4")
    expect(page.get_by_test_id("game-entry")).to_have_count(1)
    expect(page.get_by_test_id("game-entry")).to_contain_text("4 × 4 · general")
    search.fill("4x4 win")
    expect(page.get_by_test_id("game-entry")).to_have_count(0)
    empty = page.locator("#games-list li.empty")
    expect(empty).to_have_text("No game holds every word of “4x4 win”.")
    page.locator("[data-close=games-dialog]").click()
    page.get_by_test_id("games").click()
    expect(search).to_have_value("")
    expect(page.get_by_test_id("game-entry")).to_have_count(11)
