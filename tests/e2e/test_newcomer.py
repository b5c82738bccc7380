"""What a new player meets, round four (issue 43): the result and the rematch against the
computer, names cut at a word, the words of Settings and How to play, the difficulty and the
level offered -- at a phone (390x844) and a desktop (1280x800)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from sos import Action, Rules
from sos.app.share.players import NAME_FIELD_MAX
from sos.app.share.remote import RemoteLink, encode_link

Opener = Callable[..., Page]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def sized(page: Page, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_leaving_review_returns_to_the_end_of_the_game_unless_played_from_here(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """Closing Review puts a finished game back at its end, with the result card and Rematch;
    "▶|" shows the final position; "Play from here" leaves the review at the move shown."""
    from test_review_page import query_for, random_game, wait_reviewed

    sized(page, size)
    state = random_game(4, 3)
    page = open_app(query_for(state, "&seats=human,easy"))
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    final = page.locator("#result-text").inner_text()
    status = page.get_by_test_id("status")
    expect(status).to_have_text(final)

    page.get_by_test_id("review").click()
    wait_reviewed(page)
    end, play = page.get_by_test_id("review-end"), page.get_by_test_id("review-play")
    expect(end).to_be_disabled()  # at the end already
    expect(play).to_be_hidden()
    page.locator('#move-list button.ply[data-ply="5"]').click()
    expect(status).to_contain_text("move 5 of 16")
    expect(end).to_be_enabled()
    expect(play).to_be_visible()
    shot(page, f"newcomer-review-mid-{size}")
    end.click()
    expect(status).to_have_text(final)
    page.locator('#move-list button.ply[data-ply="11"]').click()
    expect(status).to_contain_text("move 11 of 16")
    page.get_by_test_id("review-close").click()
    expect(page.get_by_test_id("review-panel")).to_be_hidden()
    expect(status).to_have_text(final)
    expect(page.locator("#result:not(.folded) #result-text")).to_have_text(final)
    expect(page.get_by_test_id("rematch")).to_be_visible()
    shot(page, f"newcomer-review-closed-{size}")

    # "Play from here": the review closes at the move shown, ready to play on from there.
    page.get_by_test_id("review").click()
    expect(page.get_by_test_id("review-panel")).to_have_attribute("data-source", "saved")
    page.locator('#move-list button.ply[data-ply="6"]').click()
    expect(status).to_contain_text("move 6 of 16")
    play.click()
    expect(page.get_by_test_id("review-panel")).to_be_hidden()
    expect(status).to_contain_text("move 6 of 16")
    expect(result).to_be_hidden()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_reset_the_record_is_offered_with_a_record_and_can_be_undone(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    sized(page, size)
    page = open_app("?size=3")
    page.get_by_test_id("stats").click()
    expect(page.get_by_test_id("stats-total")).to_be_visible()
    expect(page.get_by_test_id("stats-reset")).to_be_hidden()  # nothing recorded
    page.keyboard.press("Escape")

    page = open_app("?size=3&mode=simple&seats=human,hard&game=Sa1Ob1Sc1")  # a win, recorded
    page.get_by_test_id("stats").click()
    rows = page.get_by_test_id("stats-row")
    expect(rows).to_have_count(1)
    page.get_by_test_id("stats-reset").click()
    expect(rows).to_have_count(0)
    expect(page.get_by_test_id("stats-message")).to_contain_text("Record reset")
    undo = page.get_by_test_id("stats-undo")
    expect(undo).to_be_visible()
    expect(page.get_by_test_id("stats-reset")).to_be_hidden()
    shot(page, f"newcomer-stats-reset-{size}")
    undo.click()
    expect(rows).to_have_count(1)
    expect(page.get_by_test_id("stats-message")).to_have_text("The record is back as it was.")
    expect(undo).to_be_hidden()
    page.reload()  # the record stays back after a reload
    page.locator('html[data-ready="1"]').wait_for(state="attached", timeout=90_000)
    page.get_by_test_id("stats").click()
    expect(rows).to_have_count(1)
    expect(page.get_by_test_id("stats-undo")).to_be_hidden()


#: 40 characters, as a player wrote it (issue 43: it became "Maximilian-Alexander von").
FORTY = "Maximilian-Alexander von Hohenzollern-Si"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_long_name_is_kept_whole_and_cut_only_at_a_word(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """A 40-character name is kept whole (the field takes NAME_FIELD_MAX, twice the name's
    limit, so that the app cuts a longer one at its last word); a longer one, from a pasted
    game by link, say, is cut at a word with "…". Where it does not fit, the score card ends
    it with "…" and keeps the whole name in its tooltip."""
    assert len(FORTY) == 40
    sized(page, size)
    page = open_app("?size=5&seats=human,easy")
    page.get_by_test_id("settings").click()
    field = page.get_by_test_id("settings-name-0")
    assert field.evaluate("(e) => e.maxLength") == NAME_FIELD_MAX
    field.fill(FORTY)
    page.get_by_test_id("settings-start").click()
    status = page.get_by_test_id("status")
    expect(status).to_have_text(f"{FORTY} to move")
    card = page.locator("#players li[data-player='0']")
    expect(card).to_contain_text(FORTY)
    shot(page, f"newcomer-long-name-{size}")
    # A game by link from a friend named with 122 characters: cut at a word, with "…".
    link = RemoteLink("longname", Rules.square(3), (Action.parse("S@a1"),), 0,
                      (" ".join([FORTY] * 3), ""))
    page = open_app(f"?r={quote(encode_link(link), safe='')}")
    expect(page.locator("#players li[data-player='0']")).to_contain_text(f"{FORTY} {FORTY}…")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_settings_cancel_puts_the_language_back_and_the_friend_option_has_one_name(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """Settings applies the language at once; Cancel (or Esc) puts it back, Keep keeps it.
    How to play names "a friend by link" as the start row and Settings do."""
    sized(page, size)
    page = open_app("?size=4")
    page.get_by_test_id("settings").click()
    expect(page.locator("label:has(#settings-remote)")).to_contain_text("Play a friend by link")
    page.get_by_test_id("settings-lang").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_test_id("settings-cancel")).to_have_text("Abbrechen")
    shot(page, f"newcomer-settings-de-{size}")
    page.get_by_test_id("settings-cancel").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("new-game")).to_have_text("New game")
    expect(page).not_to_have_url(re.compile("lang=de"))

    page.get_by_test_id("settings").click()  # Esc is a Cancel too
    page.get_by_test_id("settings-lang").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.keyboard.press("Escape")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-lang").select_option("de")
    page.get_by_test_id("settings-keep").click()
    expect(page.get_by_test_id("new-game")).to_have_text("Neues Spiel")
    page.reload()
    page.locator('html[data-ready="1"]').wait_for(state="attached", timeout=90_000)
    expect(page.locator("html")).to_have_attribute("lang", "de")

    page = open_app("?size=4&lang=en")
    page.get_by_test_id("help").click()
    help_text = page.locator("#help-dialog")
    expect(help_text).to_contain_text("“a friend by link”")
    expect(help_text).to_contain_text("“Play a friend by link” in Settings")
    expect(page.locator("[data-testid=play-link]")).to_have_text("a friend by link")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_undo_of_a_move_whose_link_was_on_offer_asks_first(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """A game by link: after your move the link to send is on offer (it may have gone out by
    hand); Undo asks first, Keep my move keeps it, Take it back takes it back."""
    sized(page, size)
    page = open_app("?size=3")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("remote").check()
    page.get_by_test_id("settings-start").click()
    expect(page.get_by_test_id("remote-status")).to_have_text("Your turn.")
    page.get_by_test_id("letter-S").click()
    page.locator('button.cell[data-row="0"][data-col="0"]').click()
    expect(page.get_by_test_id("remote-status")).to_contain_text("send this link")
    a1 = page.locator('button.cell[data-row="0"][data-col="0"]')
    dialog = page.get_by_test_id("undo-dialog")
    page.get_by_test_id("undo").click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("may already be with your friend")
    shot(page, f"newcomer-undo-by-link-{size}")
    page.get_by_test_id("undo-keep").click()
    expect(dialog).to_be_hidden()
    expect(a1).to_have_text("S")
    page.keyboard.press("Control+z")  # the key asks too
    expect(dialog).to_be_visible()
    page.get_by_test_id("undo-confirm").click()
    expect(dialog).to_be_hidden()
    expect(a1).to_have_text("")
    expect(page.get_by_test_id("remote-status")).to_have_text("Your turn.")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_daily_puzzle_says_solved_today_and_the_difficulty_says_what_it_does(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """Today's puzzle (whichever it is: its solution comes from the set), solved: the Daily
    puzzle button says "✓" once another puzzle is shown, and the puzzle's title says "✓ solved
    today" when it is opened again.
    Changing Difficulty changes the line under it (the rating the next puzzles are chosen
    near)."""
    from datetime import date

    from sos.app.learn.puzzle_set import DATA_PATH, daily_index, parse_puzzles

    root = Path(__file__).resolve().parents[2]
    puzzles = parse_puzzles((root / DATA_PATH).read_text(encoding="utf-8"))
    puzzle = puzzles[daily_index(date.today(), len(puzzles))]
    sized(page, size)
    page = open_app("?puzzle=daily")
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible()
    line = page.get_by_test_id("puzzle-difficulty-line")
    expect(line).to_have_text("Next puzzles are chosen near a rating of 1500 (yours: 1500).")
    page.get_by_test_id("puzzle-difficulty").select_option("harder")
    expect(line).to_have_text("Next puzzles are chosen near a rating of 1800 (yours: 1500).")

    state = puzzle.start()
    player = state.current_player()
    for action in puzzle.line:
        square = page.locator(f'#puzzle-board button.cell[data-row="{action.row}"]'
                              f'[data-col="{action.col}"]')
        if state.current_player() == player:
            page.get_by_test_id(f"puzzle-letter-{action.letter}").click()
            square.click()
        expect(square).to_have_text(action.letter)  # (a reply: played by the page)
        state.apply(action)
    title = page.get_by_test_id("puzzle-title")
    expect(page.get_by_test_id("puzzle-feedback")).to_contain_text("Solved")
    expect(title).not_to_contain_text("solved today")  # (the verdict says it; nothing moves)
    page.get_by_test_id("puzzle-next").click()
    expect(title).not_to_contain_text("Daily")
    expect(page.get_by_test_id("puzzle-daily")).to_have_text("Daily puzzle ✓")
    page.get_by_test_id("puzzle-daily").click()
    expect(title).to_contain_text("✓ solved today")
    shot(page, f"newcomer-daily-solved-{size}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_settings_say_why_perfect_is_greyed_out(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    sized(page, size)
    page = open_app("?size=4")
    page.get_by_test_id("settings").click()
    note = page.get_by_test_id("settings-perfect-note")
    perfect = page.locator("[data-testid=settings-seat-1] option[value=perfect]")
    expect(note).to_be_hidden()
    expect(perfect).to_be_enabled()
    page.locator("#settings-size").select_option("5")
    expect(perfect).to_be_disabled()
    expect(note).to_have_text(
        "Perfect play is offered on boards up to 4 × 4: on a larger board the solver cannot "
        "finish in time.")
    shot(page, f"newcomer-perfect-note-{size}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_computer_choice_offers_its_level(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """"Play against: the computer" starts medium, and a level menu beside it changes that at
    once (the levels of the board: no perfect on 5x5)."""
    sized(page, size)
    page = open_app("?size=5")
    level = page.get_by_test_id("start-level")
    expect(level).to_be_hidden()  # a friend here: no computer
    page.get_by_test_id("play-computer").click()
    computer = page.locator("#players li[data-player='1']")
    expect(computer).to_have_attribute("data-kind", "medium")
    expect(level).to_be_visible()
    expect(level).to_have_value("medium")
    expect(level.locator("option")).to_have_text(["Easy", "Medium", "Hard"])
    level.select_option("hard")
    expect(computer).to_have_attribute("data-kind", "hard")
    expect(level).to_have_value("hard")
    shot(page, f"newcomer-start-level-{size}")
    page.get_by_test_id("play-here").click()
    expect(level).to_be_hidden()
