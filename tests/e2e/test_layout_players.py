"""What a new player meets (issue 32, part B), measured in the browser: long names hold the
layout at every width, Settings show only the seats in play after a language switch, the end of a
game leaves the board (and its finishing SOS) in view and its actions reachable, the first screen
plays the computer in one tap, the layout of Settings, "Your games" (with a thumbnail of each
game's board), the embed's review chart and the move list. Each case also runs the layout
matrix's checks (tests/e2e/layout_check.js). Screenshots: test-results/players-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import cell, settle, write
from playwright.sync_api import Page, expect
from test_layout import CHECK

from sos import Action, Rules, new_game
from sos.app.saving.transcript import encode_moves
from sos.app.share.remote import MAX_NAME
from sos.app.text.i18n import LANGUAGES
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS

Opener = Callable[..., Page]
Shot = Callable[[Page, str], Path]

# the largest table: the human and easy computers in every other seat
SEATS = ",".join(["human"] + ["easy"] * (MAX_PLAYERS - 1))

PHONE = (390, 844)
NARROW = (320, 640)
DESKTOP = (1280, 800)

#: A name of the longest length, of wide letters, and one with spaces.
LONG_NAMES = (
    "W" * MAX_NAME,
    "Maximiliane Wilhelmine Ö",
    "Bernd-Friedrich von Hohe",
    "MMMMMMMMMMMM MMMMMMMMMMM",
)

#: Where nothing may be found on top of an element's centre: (selector) -> problems.
UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || (hit !== el && !el.contains(hit));
}).map((el) => el.dataset.testid || `${el.dataset.row},${el.dataset.col}`)"""


def _size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


def _in_view(page: Page, selector: str) -> None:
    """``selector`` is shown inside the viewport, and nothing covers its centre."""
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    assert box is not None and view is not None, selector
    assert box["x"] >= -1 and box["x"] + box["width"] <= view["width"] + 1, (selector, box)
    assert box["y"] >= -1 and box["y"] + box["height"] <= view["height"] + 1, (selector, box)
    assert page.evaluate(UNCOVERED, selector) == [], selector


# --------------------------------------------------------------------------- item 3: names


@pytest.mark.parametrize(
    ("size", "players"),
    [(NARROW, 2), (NARROW, 4), (PHONE, 2), (PHONE, 4), (DESKTOP, 2), (DESKTOP, 4)],
)
def test_long_names_hold_the_layout(
    page: Page, open_app: Opener, shot: Shot, size: tuple[int, int], players: int
) -> None:
    """Names of the longest length: no sideways scroll, every score in view and uncovered, a
    cut name ends with an ellipsis and keeps the whole name in its title and for screen readers;
    on a desktop the score cards stay left of the Undo/Redo column."""
    _size(page, size)
    seats = ",".join(["human"] * (players - 1) + ["easy"])
    open_app(f"?players={players}&seats={seats}")
    page.get_by_test_id("settings").click()
    for seat in range(players):
        page.get_by_test_id(f"settings-name-{seat}").fill(LONG_NAMES[seat])
    page.get_by_test_id("settings-start").click()
    settle(page)
    shot(page, f"players-long-names-{size[0]}x{size[1]}-{players}p")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"the page scrolls sideways: {width} > {size[0]}"
    for seat in range(players):
        card = page.locator(f'#players .player[data-player="{seat}"]')
        expect(card).to_have_attribute("aria-label", re.compile(re.escape(LONG_NAMES[seat])))
        expect(card.locator("[title]")).to_have_attribute("title", LONG_NAMES[seat])
        _in_view(page, f"[data-testid=score-{seat}]")
    if size == DESKTOP:
        side = page.locator(".side").bounding_box()
        assert side is not None
        for box in [c.bounding_box() for c in page.locator("#players .player").all()]:
            assert box is not None and box["x"] + box["width"] <= side["x"], (box, side)
    assert page.evaluate(CHECK, size == DESKTOP) == []
    page.get_by_test_id("settings").click()  # the next Settings dialog is whole
    dialog = page.locator("#settings-dialog").bounding_box()
    assert dialog is not None and dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= size[0]


#: A seat's default name whose number ends in "…": (unused) -> [[name, width needed, room]].
CUT_NAMES = """() => [...document.querySelectorAll('#players .name-text')]
  .filter((el) => el.scrollWidth > el.clientWidth).map((el) => [el.textContent, el.scrollWidth,
  el.clientWidth])"""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", ["phone", "embed", "scrollbar"])
def test_four_default_names_fit_whole_at_320(
    page: Page, open_app: Opener, shot: Shot, where: str, lang: str
) -> None:
    """Four players, three of them computers, at 320 px wide (a 320 x 640 phone and the
    320 x 420 embed): the 2 x 2 cards show every default name whole ("Computer 2", el
    "Υπολογιστής 2"), so the number that tells the seats apart is never cut by the ellipsis.
    "scrollbar": a 320 px desktop window whose classic scrollbar (17 px on Windows, 12 px in
    Firefox on Linux) leaves 303 px to the page -- this Chromium hides its scrollbars, so the
    303 px are the viewport (in Firefox at 320 px, "Υπολογιστής 2" was cut by 2 px)."""
    size = {"phone": NARROW, "embed": (320, 420), "scrollbar": (303, 640)}[where]
    _size(page, size)
    embed = "&embed=1" if where == "embed" else ""
    open_app(f"?players=4&seats=human,easy,medium,hard&lang={lang}{embed}")
    expect(page.locator("#players .player")).to_have_count(4)
    if lang in ("en", "de", "el"):
        shot(page, f"players-4-names-{where}-{lang}")
    names = page.locator("#players .name-text").all_inner_texts()
    assert all(re.search(r"\d$", name) for name in names), names  # the default names
    assert page.evaluate(CUT_NAMES) == []
    assert page.evaluate(CHECK, where == "embed") == []
    # later in a game, beside a score of two digits (written in place: the cards' layout is
    # what is measured), the names stay whole too
    page.evaluate("() => document.querySelectorAll('#players .score')"
                  ".forEach((el) => { el.textContent = '88'; })")
    assert page.evaluate(CUT_NAMES) == []


# --------------------------------------------------------------------------- item 4: seats


@pytest.mark.parametrize("lang", ["de", "ar"])
def test_settings_show_only_the_seats_in_play_after_a_language_switch(
    page: Page, open_app: Opener, lang: str
) -> None:
    open_app("?players=2")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-lang").select_option(lang)
    expect(page.locator("#settings-dialog legend").nth(1)).not_to_have_text("Who plays")
    for seat in range(4):
        expect(page.get_by_test_id(f"settings-name-{seat}")).to_be_visible(visible=seat < 2)
    page.get_by_test_id("settings-players").select_option("3")
    expect(page.get_by_test_id("settings-name-2")).to_be_visible()
    expect(page.get_by_test_id("settings-name-3")).to_be_hidden()


# --------------------------------------------------------------------------- item 6: game over


def _finished_3x3() -> str:
    """A full 3 x 3 game whose last move, O in the middle, completes the middle row."""
    state = new_game(Rules.square(3, "general", 2))
    letters = {(0, 0): "O", (0, 1): "O", (0, 2): "O", (1, 0): "S", (1, 2): "S",
               (2, 0): "O", (2, 1): "O", (2, 2): "O"}
    for (r, c), letter in letters.items():
        state.apply(Action(r, c, letter))
    state.apply(Action(1, 1, "O"))
    assert state.is_terminal() and state.records[-1].lines
    return encode_moves(state.history)


@pytest.mark.parametrize("where", ["phone", "desktop", "embed"])
def test_the_end_of_a_game_leaves_the_board_in_view(
    page: Page, open_app: Opener, shot: Shot, where: str
) -> None:
    size = {"phone": PHONE, "desktop": DESKTOP, "embed": (320, 420)}[where]
    _size(page, size)
    embed = "&embed=1" if where == "embed" else ""
    open_app(f"?size=3&game={_finished_3x3()}{embed}")
    page.locator("#notice-close").click()
    expect(page.get_by_test_id("result")).to_be_visible()
    settle(page)
    shot(page, f"players-game-over-{where}")
    assert page.evaluate(UNCOVERED, "#board .cell") == []  # the finishing SOS and every square
    for selector in ("[data-testid=rematch]", "[data-testid=play-again]"):
        _in_view(page, selector)
    assert page.evaluate(CHECK, where != "phone") == []
    page.get_by_test_id("result-close").click()
    settle(page)
    shot(page, f"players-game-over-closed-{where}")
    for selector in ("[data-testid=rematch]", "[data-testid=play-again]", "[data-testid=review]"):
        expect(page.locator(selector)).to_be_enabled()
        _in_view(page, selector)
    assert page.evaluate(CHECK, where != "phone") == []
    page.get_by_test_id("rematch").click()
    expect(page.get_by_test_id("result")).to_be_hidden()
    expect(cell(page, 1, 1)).to_have_text("")


# --------------------------------------------------------------------------- item 8: first screen


@pytest.mark.parametrize("size", [PHONE, DESKTOP])
def test_the_first_screen_plays_the_computer_in_one_tap(
    page: Page, open_app: Opener, shot: Shot, size: tuple[int, int]
) -> None:
    _size(page, size)
    open_app()  # a first visit: no saved game
    choice = page.get_by_test_id("start-choice")
    expect(choice).to_be_visible()
    shot(page, f"players-first-screen-{size[0]}x{size[1]}")
    assert page.evaluate(UNCOVERED, "#board .cell") == []  # the board is playable at once
    expect(page.get_by_test_id("play-here")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("play-computer").click()
    expect(page.locator('#players .player[data-player="1"]')).not_to_have_attribute(
        "data-kind", "human"
    )
    first = page.locator('#players .player[data-player="0"]')
    expect(first).to_have_attribute("data-kind", "human")
    expect(page.get_by_test_id("play-computer")).to_have_attribute("aria-pressed", "true")
    write(page, 0, 0, "S")
    expect(choice).to_be_hidden()  # a game under way: the choice is gone
    expect(page.locator("#board .cell:not(:empty)")).to_have_count(2, timeout=30_000)
    assert page.evaluate(CHECK, size == DESKTOP) == []
    # "New game" starts at once; Settings opens a dialog named for what it holds
    new_game_text = page.get_by_test_id("new-game").inner_text()
    page.get_by_test_id("settings").click()
    expect(page.locator("#settings-title")).not_to_have_text(new_game_text)
    expect(page.locator("#settings-title")).to_have_text(page.get_by_test_id("settings").inner_text())


def test_the_first_screen_offers_a_friend_here_and_by_link(page: Page, open_app: Opener) -> None:
    _size(page, PHONE)
    open_app()
    page.get_by_test_id("play-computer").click()
    expect(page.locator('#players .player[data-player="1"]')).not_to_have_attribute(
        "data-kind", "human"
    )
    page.get_by_test_id("play-here").click()
    expect(page.locator("#players .player[data-kind=human]")).to_have_count(2)
    page.get_by_test_id("play-link").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    expect(page.get_by_test_id("remote")).to_be_checked()
    expect(page.get_by_test_id("remote-seat")).to_be_visible()


def test_the_start_choice_stays_out_of_an_embed(page: Page, open_app: Opener) -> None:
    _size(page, (320, 420))
    open_app("?embed=1")
    expect(page.get_by_test_id("start-choice")).to_be_hidden()


# --------------------------------------------------------------------------- item 11: layout


@pytest.mark.parametrize("size", [DESKTOP, PHONE, (1280, 720)])
def test_four_player_settings_show_cancel_and_start(
    page: Page, open_app: Opener, shot: Shot, size: tuple[int, int]
) -> None:
    _size(page, size)
    open_app("?players=4&seats=human,easy,medium,hard&lang=de")
    page.get_by_test_id("settings").click()  # four seat rows: the tallest form
    expect(page.get_by_test_id("settings-name-3")).to_be_visible()
    shot(page, f"players-settings-4p-{size[0]}x{size[1]}")
    for selector in ("#settings-cancel", "#settings-keep", "[data-testid=settings-start]"):
        _in_view(page, selector)


def test_your_games_put_delete_beside_every_entry_with_a_thumbnail(
    page: Page, open_app: Opener, shot: Shot
) -> None:
    _size(page, PHONE)
    open_app("?size=3")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("remote").check()  # a game by link: its entry has "Last link"
    page.get_by_test_id("settings-start").click()
    write(page, 0, 0, "S")
    page.get_by_test_id("new-game").click()
    write(page, 2, 2, "O")
    write(page, 1, 1, "S")
    page.get_by_test_id("games").click()
    entries = page.get_by_test_id("game-entry")
    expect(entries).to_have_count(2)
    expect(page.get_by_test_id("remote-entry-link")).to_have_count(1)
    shot(page, "players-your-games")
    for entry in entries.all():
        opener = entry.locator(".game-open").bounding_box()
        delete = entry.get_by_test_id("game-delete").bounding_box()
        assert opener is not None and delete is not None
        # beside the text (never under it), at the same end of the line in every entry
        assert delete["x"] >= opener["x"] + opener["width"] - 1, (opener, delete)
        assert delete["y"] < opener["y"] + opener["height"], (opener, delete)
    # each entry shows its board: the letters of its position, where they stand
    thumbs = [entry.get_by_test_id("game-thumb") for entry in entries.all()]
    letters = [
        t.locator("text").evaluate_all(
            "ts => ts.map(t => t.textContent + '@' + t.dataset.at).sort().join(' ')"
        )
        for t in thumbs
    ]
    assert letters == ["O@2,2 S@1,1", "S@0,0"], letters
    for thumb in thumbs:
        box = thumb.bounding_box()
        assert box is not None and 32 <= box["width"] <= 80
        assert abs(box["width"] - box["height"]) <= 1
        assert thumb.get_attribute("aria-hidden") == "true"
    clipped = page.locator("#games-list").evaluate(
        "l => [...l.querySelectorAll('span, a, button')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert clipped == [], clipped


def _long_turn_game() -> str:
    """A 2-player 6 x 6 game in which the second seat scores a run of moves after move 20."""
    state = new_game(Rules.square(6, "general", 2))
    rows = ["S.SS.S", "......", "S.SS.S", "......", "S.SS.S", "......"]
    # the first player fills rows 1, 3, 5 with S; the second completes S.S gaps later
    moves = [Action(r, c, "S") for r in range(6) for c in range(6) if rows[r][c] == "S"]
    fillers = [Action(r, c, "S" if c % 2 else "O") for r in (1, 3, 5) for c in range(6)]
    while not state.is_terminal():
        if state.current_player() == 1 and len(state.history) >= 20:
            gaps = [Action(r, c, "O") for r in (0, 2, 4) for c in (1, 4)
                    if state.is_legal(Action(r, c, "O"))]
            if gaps:
                state.apply(gaps[0])
                continue
        pool = moves if moves else fillers
        while pool and not state.is_legal(pool[0]):
            pool.pop(0)
        if pool:
            state.apply(pool.pop(0))
        else:
            state.apply(state.legal_actions()[0])
    return encode_moves(state.history)


@pytest.mark.parametrize("size", [DESKTOP, PHONE])
def test_move_list_turn_titles_stay_on_one_line(
    page: Page, open_app: Opener, shot: Shot, size: tuple[int, int]
) -> None:
    _size(page, size)
    open_app(f"?seats=human,easy&game={_long_turn_game()}")
    titles = page.locator("#move-list .turn-title")
    expect(titles.filter(has_text=re.compile(r"\d+–\d+\. Computer 2"))).not_to_have_count(0)
    shot(page, f"players-move-list-{size[0]}x{size[1]}")
    lines = titles.evaluate_all(
        """ts => ts.filter(t => t.getClientRects().length !== 1
              || t.getBoundingClientRect().height > 1.9 * parseFloat(getComputedStyle(t).fontSize))
              .map(t => t.textContent)"""
    )
    assert lines == [], lines
    assert page.evaluate(CHECK, size == DESKTOP) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_embed_review_shows_its_chart_whole_at_320x420(
    page: Page, open_app: Opener, shot: Shot, lang: str
) -> None:
    """A review in a 320 x 420 frame: the evaluation chart and the selected move's text are
    both whole inside the panel (nothing cut at its bottom, no scrolling needed)."""
    from test_review_page import query_for, random_game, wait_reviewed

    _size(page, (320, 420))
    state = new_game(Rules.square(MAX_APP_SIZE, "general", MAX_PLAYERS))
    for action in random_game(MAX_APP_SIZE, 5, players=MAX_PLAYERS).history:
        if len(state.history) >= 6 and state.current_player() == 0:
            break
        state.apply(action)
    open_app(query_for(state, f"&embed=1&lang={lang}&seats={SEATS}"))
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    settle(page)
    shot(page, f"players-embed-review-{lang}")
    panel = page.get_by_test_id("review-panel")
    assert panel.evaluate("p => p.scrollTop") == 0
    outer = panel.bounding_box()
    assert outer is not None
    for part in ("review-graph", "review-move"):
        box = page.get_by_test_id(part).bounding_box()
        assert box is not None and box["height"] >= 20, part
        bottom = outer["y"] + outer["height"] + 1
        assert outer["y"] <= box["y"] and box["y"] + box["height"] <= bottom, (part, box, outer)
    assert page.evaluate(CHECK, True) == []
