"""Playing SOS in Chromium: full games by clicks, the simple mode, turn order, bad URLs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from helpers import cell, write
from playwright.sync_api import Page, expect

from sos.rules import MAX_APP_SIZE

Opener = Callable[..., Page]


def expect_scores(page: Page, scores: list[str]) -> None:
    """Wait until the players' scores read ``scores`` (player 1 first)."""
    for i, score in enumerate(scores):
        expect(page.get_by_test_id(f"score-{i}")).to_have_text(score)


def test_full_3x3_general_game(open_app: Opener, shot: Callable[[Page, str], Path]) -> None:
    page = open_app("?size=3")
    expect(page.locator("button.cell")).to_have_count(9)
    status = page.get_by_test_id("status")
    expect(status).to_have_text("Player 1 to move")

    write(page, 0, 0, "S")
    expect(status).to_have_text("Player 2 to move")
    write(page, 0, 2, "S")
    write(page, 0, 1, "O")  # player 1 completes the top row
    expect(status).to_have_text("Player 1 scored 1 and moves again")
    expect_scores(page, ["1", "0"])
    sos = page.locator('[data-sos="0,0,0,2"]')
    expect(sos).to_have_count(1)
    expect(sos).to_have_attribute("data-player", "0")
    expect(cell(page, 0, 1)).to_have_class("cell last")

    write(page, 2, 2, "S")
    expect(status).to_have_text("Player 2 to move")
    write(page, 1, 1, "O")  # diagonal a1-c3
    expect(status).to_have_text("Player 2 scored 1 and moves again")
    write(page, 2, 0, "S")  # anti-diagonal
    write(page, 2, 1, "O")  # bottom row
    write(page, 1, 0, "O")  # left column
    expect_scores(page, ["1", "4"])
    expect(status).to_have_text("Player 2 scored 1 and moves again")
    # A written square cannot be overwritten.
    page.get_by_test_id("letter-S").click()
    expect(cell(page, 1, 1)).to_have_attribute("aria-disabled", "true")
    cell(page, 1, 1).click(force=True)
    expect(cell(page, 1, 1)).to_have_text("O")
    write(page, 1, 2, "S")  # fills the board without scoring

    expect(status).to_have_text("Player 2 wins, 4–1")
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.locator("#result-text")).to_have_text("Player 2 wins, 4–1")
    marks = page.locator("[data-sos]")
    expect(marks).to_have_count(5)
    assert sorted(
        (m.get_attribute("data-sos"), m.get_attribute("data-player")) for m in marks.all()
    ) == [
        ("0,0,0,2", "0"),
        ("0,0,2,0", "1"),
        ("0,0,2,2", "1"),
        ("0,2,2,0", "1"),
        ("2,0,2,2", "1"),
    ]
    # Player 1 rings, player 2 strikes through: shape differs, not only colour.
    expect(page.locator('[data-sos="0,0,0,2"] rect.ring')).to_have_count(1)
    expect(page.locator('[data-sos="0,0,2,2"] line.strike')).to_have_count(1)
    expect(page.locator("li.player.p1.winner")).to_have_count(1)
    # Every cell says its coordinate and content to screen readers.
    expect(cell(page, 2, 1)).to_have_attribute("aria-label", "b3, O")
    shot(page, "game-over-3x3")

    page.get_by_test_id("play-again").click()
    expect(page.locator("[data-sos]")).to_have_count(0)
    expect(page.locator("button.cell:has-text('S'), button.cell:has-text('O')")).to_have_count(0)
    expect(status).to_have_text("Player 1 to move")
    expect_scores(page, ["0", "0"])
    expect(page.get_by_test_id("result")).to_be_hidden()


def test_simple_game_ends_at_first_sos(open_app: Opener) -> None:
    page = open_app("?size=4&mode=simple")
    write(page, 0, 0, "S")
    write(page, 0, 2, "S")
    write(page, 0, 1, "O")  # player 1 completes an SOS from both players' letters
    expect(page.get_by_test_id("status")).to_have_text("Player 1 wins with the first SOS")
    expect(page.get_by_test_id("result")).to_be_visible()
    # The game is over: no more letters can be written.
    cell(page, 3, 3).click(force=True)
    expect(cell(page, 3, 3)).to_have_text("")
    expect(cell(page, 3, 3)).to_have_attribute("aria-disabled", "true")


def test_three_player_turn_order(open_app: Opener) -> None:
    page = open_app("?size=4&players=3")
    expect(page.locator("li.player")).to_have_count(3)
    status = page.get_by_test_id("status")
    for (row, col, letter), before in zip(
        ((0, 0, "S"), (0, 1, "O"), (0, 2, "S"), (3, 3, "O")),
        (
            "Player 1 to move",
            "Player 2 to move",
            "Player 3 to move",
            "Player 3 scored 1 and moves again",
        ),
        strict=True,
    ):
        expect(status).to_have_text(before)
        write(page, row, col, letter)
    expect(status).to_have_text("Player 1 to move")
    expect_scores(page, ["0", "0", "1"])
    expect(page.locator("li.player.current")).to_have_attribute("data-player", "0")
    # Player 3 marks with a dashed line.
    expect(page.locator('[data-sos="0,0,0,2"][data-player="2"] line.dash')).to_have_count(1)


def test_letter_keys(open_app: Opener) -> None:
    page = open_app("?size=3")
    page.keyboard.press("o")
    expect(page.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "true")
    cell(page, 1, 1).click()
    expect(cell(page, 1, 1)).to_have_text("O")
    page.keyboard.press("s")
    expect(page.get_by_test_id("letter-S")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "false")
    cell(page, 0, 0).click()
    expect(cell(page, 0, 0)).to_have_text("S")


def test_bad_url_parameters_fall_back_to_defaults(open_app: Opener) -> None:
    page = open_app("?size=99&mode=blitz&players=7&lang=xx&seats=robot")
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice.locator("li")).to_have_count(5)
    for fragment in ("size=99", "mode=blitz", "players=7", "lang=xx", "seats=robot"):
        expect(notice).to_contain_text(fragment)
    expect(page.locator("button.cell")).to_have_count(36)  # default 6x6
    expect(page.locator("li.player")).to_have_count(2)
    # The fallback game is playable.
    write(page, 2, 2, "S")
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move")
    page.locator("#notice-close").click()
    expect(notice).to_be_hidden()


def test_hostile_parameter_is_shown_as_text(open_app: Opener) -> None:
    page = open_app("?size=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text("<img")
    expect(page.locator("#notice img")).to_have_count(0)


def test_settings_start_a_new_game(open_app: Opener) -> None:
    page = open_app("?size=3")
    write(page, 0, 0, "S")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-size").select_option("5")
    page.locator("input[name=mode][value=simple]").check()
    page.get_by_test_id("settings-players").select_option("4")
    page.get_by_test_id("settings-start").click()
    expect(page.locator("button.cell")).to_have_count(25)
    expect(page.locator("li.player")).to_have_count(4)
    expect(page.locator("#mode-text")).to_have_text("Simple game")
    expect(page).to_have_url(re.compile(r"^(?=.*size=5)(?=.*mode=simple)(?=.*players=4)"))
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")


def test_german(open_app: Opener) -> None:
    page = open_app("?size=3&lang=de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("status")).to_have_text("Spieler 1 ist am Zug")
    expect(page.get_by_test_id("new-game")).to_have_text("Neues Spiel")
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", "a1, leer")


def test_screenshots_phone_and_desktop(
    page: Page, open_app: Opener, shot: Callable[[Page, str], Path]
) -> None:
    for name, width, height, size in (
        ("phone-390x844", 390, 844, 8),
        ("desktop-1280x800", 1280, 800, 8),
        (f"phone-320x640-{MAX_APP_SIZE}x{MAX_APP_SIZE}", 320, 640, MAX_APP_SIZE),
    ):
        page.set_viewport_size({"width": width, "height": height})
        open_app(f"?size={size}")
        for row, col, letter in ((0, 0, "S"), (0, 1, "O"), (0, 2, "S"), (1, 1, "O"), (2, 2, "S")):
            write(page, row, col, letter)
        # Large boards scale to fit: no horizontal scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, name)
        page.evaluate("localStorage.clear()")  # the next load starts a new game, not this one
