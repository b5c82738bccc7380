"""Player experience: undo/redo, the move list, saved games, shared links, game records,
two languages, themes, keyboard-only play and accessibility checks (axe-core)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from helpers import cell, wait_saved, write
from playwright.sync_api import BrowserContext, Page, expect

Opener = Callable[..., Page]
WRITTEN = "button.cell:has-text('S'), button.cell:has-text('O')"


def expect_scores(page: Page, scores: list[str]) -> None:
    """Wait until the two players' scores read ``scores`` (player 1 first)."""
    for i, score in enumerate(scores):
        expect(page.get_by_test_id(f"score-{i}")).to_have_text(score)


def opening(page: Page) -> None:
    """S a1, S c1 (player 2), O b1 scores for player 1, then S a3 passes the turn."""
    write(page, 0, 0, "S")
    write(page, 0, 2, "S")
    write(page, 0, 1, "O")
    write(page, 2, 0, "S")


def test_undo_redo_buttons_and_keys(open_app: Opener) -> None:
    page = open_app("?size=4")
    opening(page)
    status = page.get_by_test_id("status")
    expect_scores(page, ["1", "0"])
    expect(page.locator("[data-sos]")).to_have_count(1)
    expect(status).to_have_text("Player 2 to move")

    page.get_by_test_id("undo").click()  # S a3
    expect(status).to_have_text("Player 1 scored 1 and moves again")
    page.keyboard.press("Control+z")  # O b1: the SOS and the point go away
    expect(page.locator("[data-sos]")).to_have_count(0)
    expect_scores(page, ["0", "0"])
    expect(status).to_have_text("Player 1 to move")
    expect(page.locator(WRITTEN)).to_have_count(2)
    expect(page.locator("#move-list button.ply.future")).to_have_count(2)

    page.keyboard.press("Control+y")
    expect(page.locator("[data-sos]")).to_have_count(1)
    expect_scores(page, ["1", "0"])
    page.get_by_test_id("redo").click()
    expect(status).to_have_text("Player 2 to move")
    expect(page.get_by_test_id("redo")).to_be_disabled()

    # Undo twice, then a different move: a new line; the undone moves stay as another line.
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo").click()
    write(page, 3, 3, "O")
    expect(page.locator("#move-list button.ply")).to_have_count(3)
    expect(page.get_by_test_id("redo")).to_be_disabled()
    expect(status).to_have_text("Player 2 to move")
    expect(page.get_by_test_id("other-line")).to_have_text("From move 3, O@b1: 4 moves in all")


def test_move_list_shows_earlier_positions(open_app: Opener) -> None:
    page = open_app("?size=4")
    opening(page)
    plies = page.locator("#move-list button.ply")
    expect(plies).to_have_text(["S@a1", "S@c1", "O@b1+1", "S@a3"])
    turns = page.locator("#move-list li .turn-title")
    expect(turns).to_have_text(["1. Player 1", "2. Player 2", "3–4. Player 1"])  # moves, not turns
    plies.nth(1).click()  # after S@c1
    expect(page.locator(WRITTEN)).to_have_count(2)
    expect(page.get_by_test_id("status")).to_have_text("Viewing move 2 of 4")
    expect(plies.nth(1)).to_have_attribute("aria-current", "step")
    plies.nth(3).click()
    expect(page.locator(WRITTEN)).to_have_count(4)
    expect_scores(page, ["1", "0"])


def test_reload_restores_the_game(open_app: Opener, page: Page) -> None:
    page = open_app("?size=4")
    opening(page)
    page.keyboard.press("o")
    page.get_by_test_id("undo").click()
    page.reload()
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.locator(WRITTEN)).to_have_count(3)
    expect_scores(page, ["1", "0"])
    expect(page.locator('[data-sos="0,0,0,2"]')).to_have_count(1)
    expect(page.get_by_test_id("redo")).to_be_enabled()  # the undone move is kept too
    expect(page.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("notice")).to_be_hidden()
    # Opening the plain URL also brings the game back.
    page.goto(page.url.split("?")[0])
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.locator(WRITTEN)).to_have_count(3)
    # Explicitly asking for another game starts it.
    page.goto(page.url.split("?")[0] + "?size=5")
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.locator("button.cell")).to_have_count(25)
    expect(page.locator(WRITTEN)).to_have_count(0)


#: A save of the first version's single slot (``sos-game``) that cannot be read. The kinds of
#: unreadable save (an older format, an illegal move list, a board the app does not offer) are
#: checked in CPython: tests/app/test_saves.py::
#: test_an_unreadable_first_version_save_is_said_once_kept_and_a_new_game_is_saved.
CORRUPT_SAVE = "not json at all {"


def test_bad_saved_game_is_reported_and_replaced(open_app: Opener) -> None:
    """A first version's save that cannot be read, written to storage: the page shows the
    notice, an empty board, and saves the next move in the library, the old slot untouched."""
    saved = CORRUPT_SAVE
    page = open_app("?size=3")
    page.evaluate("localStorage.clear()")
    page.evaluate("(text) => localStorage.setItem('sos-game', text)", saved)
    page.goto(page.url.split("?")[0])
    page.wait_for_selector('html[data-ready="1"]')
    notice = page.get_by_test_id("notice")
    expect(notice).to_have_text(re.compile("The save of an earlier version of SOS could not"))
    expect(notice.locator("li")).to_have_count(1)
    expect(page.locator(WRITTEN)).to_have_count(0)
    write(page, 1, 1, "S")  # a working game, saved in the library
    game_id = page.url.split("#g=")[1]
    wait_saved(page, "Sb2", game_id)
    stored = json.loads(page.evaluate("(id) => localStorage.getItem('sos-g:' + id)", game_id))
    assert stored["version"] == 2 and stored["line"] == "Sb2"
    assert page.evaluate("localStorage.getItem('sos-game')") == saved  # kept as it was


def test_blocked_storage_still_plays(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    context = new_context()
    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{ get() { throw new DOMException('blocked', 'SecurityError'); } });"
    )
    page = context.new_page()
    page.goto(site_url + "index.html?size=3")
    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)
    expect(page.get_by_test_id("notice")).to_contain_text("will not be kept")
    write(page, 0, 0, "S")
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")


def test_shared_link_round_trip(
    open_app: Opener, new_context: Callable[..., BrowserContext]
) -> None:
    page = open_app("?size=4&mode=simple&players=3")
    write(page, 0, 0, "S")
    write(page, 3, 3, "O")
    page.get_by_test_id("share").click()
    share_url = page.get_by_test_id("share-url")
    expect(share_url).to_have_value(
        re.compile(r"^(?=.*game=Sa1Od4)(?=.*mode=simple)(?=.*players=3)")
    )
    url = share_url.input_value()
    other = new_context().new_page()  # someone else, with no saved game
    other.goto(url)
    other.wait_for_selector('html[data-ready="1"]', timeout=60_000)
    expect(other.get_by_test_id("notice")).to_contain_text("Shared game loaded: 2 moves")
    expect(cell(other, 0, 0)).to_have_text("S")
    expect(cell(other, 3, 3)).to_have_text("O")
    expect(other.get_by_test_id("status")).to_have_text("Player 3 to move")
    expect(other.locator("li.player")).to_have_count(3)
    write(other, 1, 1, "S")  # ready to play on
    # A malformed link: a clear notice, and the game in play stays as it was.
    other.goto(url.replace("game=Sa1Od4", "game=Sa1Sa1"))
    other.wait_for_selector('html[data-ready="1"]')
    expect(other.get_by_test_id("notice")).to_contain_text("could not be used")
    expect(other.get_by_test_id("notice")).to_contain_text("Nothing was changed")
    expect(cell(other, 1, 1)).to_have_text("S")
    expect(cell(other, 3, 3)).to_have_text("O")


def test_game_record_export_and_import(open_app: Opener) -> None:
    page = open_app("?size=4")
    opening(page)
    page.get_by_test_id("record").click()
    box = page.get_by_test_id("record-text")
    expect(box).to_have_value("SOS 4x4 general, 2 players\n1. S@a1\n2. S@c1\n3. O@b1 S@a3\n")
    bad = "SOS 5x5 general, 2 players\n1. S@a1\n2. S@a1\n"
    box.fill(bad)
    page.get_by_test_id("record-import").click()
    expect(page.get_by_test_id("record-message")).to_contain_text("Turn 2 (line 3):")
    expect(box).to_have_value(bad)  # nothing lost
    expect(page.locator(WRITTEN)).to_have_count(4)  # the game is unchanged behind the dialog
    box.fill("SOS 5x5 simple, 2 players\n1. S@a1\n2. O@e5\n")
    page.get_by_test_id("record-import").click()
    expect(page.locator("#record-dialog")).to_be_hidden()
    expect(page.locator("button.cell")).to_have_count(25)
    expect(page.locator(WRITTEN)).to_have_count(2)
    expect(page.locator("#mode-text")).to_have_text("Simple game")
    # "Game loaded." confirms the import, and goes at the next move.
    expect(page.get_by_test_id("notice")).to_contain_text("Game loaded.")
    page.locator("button.cell:not([aria-disabled])").first.click()
    expect(page.locator(WRITTEN)).to_have_count(3)
    expect(page.get_by_test_id("notice")).to_be_hidden()
    # A record carries the players' names: pasted, they are the game's names.
    page.get_by_test_id("record").click()
    box.fill('SOS 4x4 general, 2 players\n# names: ["Anna", "Ben"]\n1. S@a1\n')
    page.get_by_test_id("record-import").click()
    expect(page.locator("#record-dialog")).to_be_hidden()
    expect(page.locator("#players .player .name")).to_have_text(["Anna", "Ben"])
    page.get_by_test_id("record").click()
    expect(box).to_have_value('SOS 4x4 general, 2 players\n# names: ["Anna", "Ben"]\n1. S@a1\n')


def test_german_everywhere_and_remembered(open_app: Opener, page: Page) -> None:
    page = open_app("?size=3&lang=de")
    expect(page.get_by_test_id("undo")).to_have_text("Rückgängig")
    page.get_by_test_id("help").click()
    expect(page.locator("#help-dialog")).to_contain_text("Wer punktet, ist noch einmal am Zug")
    page.keyboard.press("Escape")
    write(page, 0, 0, "S")
    expect(page.get_by_test_id("announce")).to_have_text(
        "Spieler 1 schreibt S auf a1. Spieler 2 ist am Zug."
    )
    bare = page.url.split("?")[0].split("#")[0]
    page.goto(bare)  # no lang= any more: a link's language was for its visit only
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")  # the same game
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # A choice in Settings applies at once and is remembered.
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-lang").select_option("de")
    expect(page.get_by_test_id("status")).to_have_text("Spieler 2 ist am Zug")
    page.get_by_test_id("settings-keep").click()  # (Cancel and Esc would put English back)
    page.goto(bare)
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.get_by_test_id("status")).to_have_text("Spieler 2 ist am Zug")
    expect(page.locator("html")).to_have_attribute("lang", "de")


def test_browser_language_is_followed(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    page = new_context(locale="de-DE").new_page()
    page.goto(site_url + "index.html")
    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)
    expect(page.get_by_test_id("new-game")).to_have_text("Neues Spiel")


def test_theme_choice(open_app: Opener) -> None:
    page = open_app("?size=3")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-theme").select_option("dark")
    page.get_by_test_id("settings-start").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.reload()
    page.wait_for_selector('html[data-ready="1"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")


def test_keyboard_only_game(open_app: Opener) -> None:
    page = open_app("?size=3")
    # Tab from the top of the page until the focus reaches the board.
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('cell')"):
            break
    focused = page.evaluate(
        "[document.activeElement.dataset.row, document.activeElement.dataset.col]"
    )
    assert focused == ["0", "0"]
    # Roving tabindex: one cell in the tab order.
    expect(page.locator("button.cell[tabindex='0']")).to_have_count(1)
    plan = [  # (arrow presses, letter) from the previous square
        ([], "s"),  # a1
        (["ArrowRight", "ArrowRight"], "s"),  # c1
        (["ArrowLeft"], "o"),  # b1: SOS for player 1, who moves again
        (["ArrowDown"], "o"),  # b2
        (["ArrowDown"], "s"),  # b3
        (["ArrowLeft"], "s"),  # a3
        (["ArrowUp"], "o"),  # a2
        (["End"], "o"),  # c2
        (["ArrowDown"], "s"),  # c3
    ]
    for arrows, letter in plan:
        for key in arrows:
            page.keyboard.press(key)
        page.keyboard.press(letter)
    expect(page.locator(WRITTEN)).to_have_count(9)
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.locator("#result-text")).to_have_text(re.compile(r"^(Player|Draw)"))
    focus_style = page.evaluate(
        "getComputedStyle(document.activeElement).outlineStyle"
    )
    assert focus_style != "none"  # focus is visible


def test_skip_link_to_the_board(open_app: Opener) -> None:
    """Issue 50: 11 Tabs reached the board. "Skip to the board" is the first tab stop, seen
    only while focused, and takes the focus to the board's square in the tab order (the last
    one focused), as a mouse click does."""
    page = open_app("?size=4&lang=de")
    link = page.get_by_test_id("skip-board")
    box = link.bounding_box()
    assert box and box["width"] <= 1  # out of sight
    page.keyboard.press("Tab")
    expect(link).to_be_focused()
    expect(link).to_have_text("Zum Spielfeld springen")
    box = link.bounding_box()
    assert box and box["width"] > 40 and box["height"] > 20  # seen while focused
    page.keyboard.press("Enter")
    expect(cell(page, 0, 0)).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")  # b2
    link.focus()
    page.keyboard.press("Enter")
    expect(cell(page, 1, 1)).to_be_focused()
    assert "#board" not in page.url  # the link moves the focus, not the URL


AXE_OPTIONS = {"resultTypes": ["violations"]}


def _axe(page: Page, where: str) -> None:
    results = Axe().run(page, options=AXE_OPTIONS)
    serious = [
        v for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert not serious, f"{where}:\n" + results.generate_report()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_accessibility(
    open_app: Opener,
    page: Page,
    lang: str,
    scheme: str,
    shot: Callable[[Page, str], Path],
) -> None:
    page.emulate_media(color_scheme=scheme)
    page = open_app(f"?size=3&lang={lang}")
    _axe(page, "start screen")
    write(page, 0, 0, "S")
    write(page, 0, 2, "S")
    write(page, 0, 1, "O")
    _axe(page, "game in progress")
    page.get_by_test_id("help").click()
    _axe(page, "help panel")
    page.keyboard.press("Escape")
    for row, col, letter in ((1, 0, "O"), (1, 1, "O"), (1, 2, "O"), (2, 0, "O"), (2, 1, "O"),
                             (2, 2, "O")):
        write(page, row, col, letter)
    expect(page.get_by_test_id("result")).to_be_visible()
    _axe(page, "result screen")
    shot(page, f"result-{lang}-{scheme}")
