"""Puzzles in the page (issue 14): solve one right and one wrong (with the refutation played
back), a forced reply, the daily puzzle in a 320x420 embed, German at phone size, a bad
``?puzzle=`` value, progress in storage, accessibility, and the data file precached."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from helpers import GRAB_INTERPRETER, EmbedHost, wait_saved, write
from playwright.sync_api import Frame, FrameLocator, Locator, Page, expect

from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, daily_puzzle, parse_puzzles
from sos.notation import Action

ROOT = Path(__file__).resolve().parents[2]
Opener = Callable[..., Page]
PHONE = {"width": 390, "height": 844}


@cache
def puzzles() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


def one_move_with_refutation() -> Puzzle:
    return next(
        p for p in puzzles()
        if len(p.wrong) == 1 and p.rules.rows >= 5
        and any(r.reply is not None for r in p.wrong[0].values())
    )


def cell(scope: Page | FrameLocator, action: Action) -> Locator:
    return scope.locator(
        f'#puzzle-board button.cell[data-row="{action.row}"][data-col="{action.col}"]'
    )


def attempt(scope: Page | FrameLocator, action: Action) -> None:
    scope.get_by_test_id(f"puzzle-letter-{action.letter}").click()
    cell(scope, action).click()


def wrong_with_reply(puzzle: Puzzle, step: int = 0) -> tuple[Action, Action]:
    refutation = next(r for r in puzzle.wrong[step].values() if r.reply is not None)
    assert refutation.reply is not None
    return refutation.action, refutation.reply


def watch_busy(page: Page) -> None:
    """Record ``[aria-busy, has class thinking]`` of the puzzle board at each change, in
    ``window.__puzzleBusy`` (a short state is missed by polling, not by an observer)."""
    page.evaluate(
        """() => { const board = document.getElementById('puzzle-board');
          window.__puzzleBusy = [];
          new MutationObserver(() => window.__puzzleBusy.push(
            [board.getAttribute('aria-busy'), board.classList.contains('thinking')]))
            .observe(board, {attributes: true, attributeFilter: ['aria-busy', 'class']}); }"""
    )


def game_keys(page: Page) -> dict[str, str]:
    got: dict[str, str] = page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage)"
        ".filter(k => k.startsWith('sos-g:')).map(k => [k, localStorage.getItem(k)]))"
    )
    return got


@pytest.mark.parametrize("lang", ["en", "de"])
def test_solve_one_wrong_then_right_and_the_next_one_right(
    open_app: Opener, page: Page, lang: str, shot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size(PHONE)
    page = open_app(f"?size=5&lang={lang}")
    write(page, 0, 0, "S")  # the user's game: a puzzle must not change it
    wait_saved(page, "Sa1")  # (saved a task after the move)
    games = game_keys(page)
    assert len(games) == 1

    puzzle = one_move_with_refutation()
    page.goto(page.url.split("?")[0] + f"?puzzle={puzzle.id}&lang={lang}")
    dialog = page.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    expect(dialog).to_have_attribute("data-puzzle", puzzle.id)
    prompt = page.get_by_test_id("puzzle-prompt")
    expect(prompt).to_contain_text("to move" if lang == "en" else "ist am Zug")
    for action in puzzle.moves:  # the position is on the board
        expect(cell(page, action)).to_have_text(action.letter)

    wrong, reply = wrong_with_reply(puzzle)
    watch_busy(page)
    attempt(page, wrong)
    feedback = page.get_by_test_id("puzzle-feedback")
    expect(feedback).to_contain_text("is not it" if lang == "en" else "ist es nicht")
    expect(feedback).to_contain_text(str(reply))
    expect(cell(page, reply)).to_have_text(reply.letter)  # the refutation, played back
    # While the reply was coming the board was busy (as the game's board while a computer
    # thinks), and it is not any more.
    busy = page.evaluate("window.__puzzleBusy")
    assert ["true", True] in busy, busy
    board = page.get_by_test_id("puzzle-board")
    expect(board).not_to_have_attribute("aria-busy", "true")
    expect(board).not_to_have_class(re.compile(r"\bthinking\b"))
    shot(page, f"puzzle-wrong-{lang}-phone")
    page.get_by_test_id("puzzle-retry").click()
    expect(cell(page, wrong)).to_have_text("")
    expect(cell(page, reply)).to_have_text("")

    attempt(page, puzzle.line[0])
    expect(feedback).to_contain_text("Solved" if lang == "en" else "Gelöst")
    expect(cell(page, puzzle.line[0])).to_have_text(puzzle.line[0].letter)
    stats = page.get_by_test_id("puzzle-stats")
    expect(stats).to_contain_text("Failed 1" if lang == "en" else "Nicht gelöst 1")
    shot(page, f"puzzle-solved-{lang}-phone")

    page.get_by_test_id("puzzle-next").click()
    expect(feedback).to_have_text("")
    shown = dialog.get_attribute("data-puzzle")
    nxt = next(p for p in puzzles() if p.id == shown)
    assert nxt.id != puzzle.id
    for index in nxt.steps():
        attempt(page, nxt.line[index])
        expect(cell(page, nxt.line[index])).to_have_text(nxt.line[index].letter)
    expect(feedback).to_contain_text("Solved" if lang == "en" else "Gelöst")
    expect(stats).to_contain_text("Solved 1" if lang == "en" else "Gelöst 1")

    saved = json.loads(page.evaluate("localStorage.getItem('sos-puzzles')"))
    assert saved["results"] == {puzzle.id: "failed", nxt.id: "solved"}
    page.get_by_test_id("puzzle-close").click()
    expect(dialog).to_be_hidden()
    assert game_keys(page) == games  # the game is untouched
    expect(page.locator('#board button.cell[data-row="0"][data-col="0"]')).to_have_text("S")


def test_a_longer_puzzle_plays_the_forced_reply(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path]
) -> None:
    puzzle = next(p for p in puzzles() if len(p.wrong) >= 2)
    page.emulate_media(color_scheme="dark")
    page = open_app(f"?puzzle={puzzle.id}")
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    steps = puzzle.steps()
    prompt = page.get_by_test_id("puzzle-prompt")
    expect(prompt).to_contain_text(f"has {len(steps)} moves to find: this is move 1.")
    attempt(page, puzzle.line[steps[0]])
    feedback = page.get_by_test_id("puzzle-feedback")
    expect(feedback).to_contain_text("Right")
    for reply in puzzle.line[steps[0] + 1 : steps[1]]:
        expect(cell(page, reply)).to_have_text(reply.letter)
    expect(prompt).to_contain_text(f"has {len(steps)} moves to find: this is move 2.")
    shot(page, "puzzle-right-dark-desktop")
    for index in steps[1:]:
        attempt(page, puzzle.line[index])
        expect(cell(page, puzzle.line[index])).to_have_text(puzzle.line[index].letter)
    expect(feedback).to_contain_text("Solved")


def test_show_the_solution_after_a_miss(open_app: Opener, page: Page) -> None:
    # A longer puzzle missed at its first move: "Show the solution" (in German) plays the
    # whole line with its reply on the board, in place of the wrong move, and says it.
    puzzle = next(
        p for p in puzzles()
        if len(p.wrong) == 2 and len(p.line) == 3
        and any(r.reply is not None for r in p.wrong[0].values())
    )
    page.set_viewport_size(PHONE)
    page = open_app(f"?puzzle={puzzle.id}&lang=de")
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    solution = page.get_by_test_id("puzzle-solution")
    expect(solution).to_be_hidden()  # not before a miss
    wrong, reply = wrong_with_reply(puzzle)
    attempt(page, wrong)
    expect(cell(page, reply)).to_have_text(reply.letter)
    expect(solution).to_be_visible()
    expect(solution).to_have_text("Lösung zeigen")
    solution.click()
    for action in puzzle.line:
        expect(cell(page, action)).to_have_text(action.letter)
    for taken_back in {(wrong.row, wrong.col), (reply.row, reply.col)} - {
            (a.row, a.col) for a in puzzle.line}:
        expect(cell(page, Action(*taken_back, "S"))).to_have_text("")
    feedback = page.get_by_test_id("puzzle-feedback")
    expect(feedback).to_contain_text(f"Die Lösung: {puzzle.line[0]}, ")
    expect(feedback).to_contain_text(f"antwortet {puzzle.line[1]}, {puzzle.line[2]}.")
    expect(solution).to_be_hidden()
    expect(page.get_by_test_id("puzzle-retry")).to_be_hidden()
    expect(page.get_by_test_id("puzzle-next")).to_be_focused()
    # The board takes no move now.
    expect(cell(page, next(a for a in puzzle.wrong[1] if a not in puzzle.line))).to_be_disabled()


#: The day the daily-puzzle tests live on (the page's clock is pinned to it): its puzzle,
#: 7g-7461d9, a 7x7 of three moves to find, has the longest German prompt of the set (at 4
#: lines it left a 140 px board in a 320x420 frame before the short frame's grid).
PINNED_DAY = date(2026, 12, 4)
#: The smallest board (px, without its coordinates) a 320x420 frame may leave a puzzle (194 px
#: measured for 7g-7461d9 in Spanish): an 8x8 still gets squares of ~24 px.
MIN_EMBED_BOARD = 190


def pin_clock(page: Page, day: date) -> None:
    """The page's (and its frames') ``Date`` says noon of ``day``, timers run as usual: a
    test of the daily puzzle must not depend on the day it runs."""
    page.clock.set_fixed_time(datetime(day.year, day.month, day.day, 12))


def puzzle_layout(frame: Frame | Page) -> dict[str, Any]:
    return frame.evaluate(
        """() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
          const d = document.documentElement, b = r('#puzzle-board');
          return {board: [b.left, b.top, b.right, b.bottom],
                  next: r('#puzzle-next').bottom, stats: r('#puzzle-stats').bottom,
                  rating: r('.puzzle-rating-row').bottom, dialog: r('#puzzle-dialog').bottom,
                  vw: innerWidth, vh: innerHeight, sw: d.scrollWidth, cw: d.clientWidth}; }"""
    )


def assert_fits(box: dict[str, Any]) -> None:
    left, top, right, bottom = box["board"]
    assert left >= 0 and top >= 0 and right <= box["vw"] and bottom <= box["vh"], box
    assert right - left >= MIN_EMBED_BOARD and bottom - top >= MIN_EMBED_BOARD, box
    assert max(box["next"], box["stats"], box["rating"], box["dialog"]) <= box["vh"] + 0.5, box
    assert box["sw"] <= box["cw"], box


def test_the_daily_puzzle_in_an_embed(
    page: Page, embed: EmbedHost, shot: Callable[[Page, str], Path]
) -> None:
    """The day's puzzle in a 320x420 frame in German, solved: the board keeps its size (at
    least :data:`MIN_EMBED_BOARD`) from the prompt to the verdict of each move."""
    pin_clock(page, PINNED_DAY)
    frame, game = embed.open("?embed=1&puzzle=daily&lang=de", width=320, height=420)
    dialog = game.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    puzzle = daily_puzzle(puzzles(), PINNED_DAY)
    expect(dialog).to_have_attribute("data-puzzle", puzzle.id)
    expect(game.get_by_test_id("puzzle-title")).to_contain_text(f"Tagesrätsel · {PINNED_DAY}")
    shot(page, "puzzle-embed-320x420-de-start")
    first = puzzle_layout(frame)
    assert_fits(first)
    for index in puzzle.steps():
        attempt(game, puzzle.line[index])
        expect(cell(game, puzzle.line[index])).to_have_text(puzzle.line[index].letter)
        expect(game.get_by_test_id("puzzle-feedback")).not_to_be_empty()
        box = puzzle_layout(frame)
        assert_fits(box)
        assert box["board"] == first["board"], (first, box)  # the verdict moves nothing
    expect(game.get_by_test_id("puzzle-feedback")).to_contain_text("Gelöst")
    shot(page, "puzzle-embed-320x420-de")


#: Languages whose puzzle texts are the longest (es, el, fr: the longest prompts), German and
#: Arabic (right to left).
LONG_LANGUAGES = ("de", "es", "el", "fr", "ar")

#: In the frame: every puzzle of the set as the daily puzzle of its day (``today`` patched: the
#: page as on that day), in each language, with the board's and the texts' boxes measured.
EVERY_DAILY = """
from datetime import date, timedelta
from js import document, innerHeight, innerWidth
import sos.web.puzzles as P
from sos.web import locale
from sos.web.players import choose_language

panel, real, out = APP.panels.puzzles, P.today, []
def box(selector):
    r = document.querySelector(selector).getBoundingClientRect()
    return [r.left, r.top, r.right, r.bottom]
try:
    for lang in LANGS:
        assert await locale.load(lang), lang
        choose_language(APP, lang)
        for n in range(COUNT):
            day = START + timedelta(n)
            P.today = lambda day=day: day
            assert panel._choose("daily"), day
            d = document.documentElement
            out.append({"lang": lang, "day": day.isoformat(),
                        "puzzle": document.getElementById("puzzle-dialog").dataset.puzzle,
                        "board": box("#puzzle-board"), "next": box("#puzzle-next")[3],
                        "stats": box("#puzzle-stats")[3], "rating": box(".puzzle-rating-row")[3],
                        "dialog": box("#puzzle-dialog")[3], "vw": innerWidth, "vh": innerHeight,
                        "sw": d.scrollWidth, "cw": d.clientWidth})
finally:
    P.today = real
import json
json.dumps(out)
"""


#: In the frame: show puzzle ID in language LANG (for a screenshot).
SHOW_ONE = """
from sos.web import locale
from sos.web.players import choose_language
await locale.load(LANG)
choose_language(APP, LANG)
APP.panels.puzzles._choose(ID)
"""


def test_every_daily_puzzle_fits_a_320x420_embed(
    page: Page, embed: EmbedHost, shot: Callable[[Page, str], Path]
) -> None:
    """Each of the set's puzzles (sizes 4-8, both modes) is some day's daily puzzle: in one
    page load, each is shown as that day's in a 320x420 frame in the languages with the
    longest texts, and each leaves a board of at least :data:`MIN_EMBED_BOARD` px with the
    buttons, the statistics and the rating inside the frame."""
    pin_clock(page, PINNED_DAY)
    frame, game = embed.open("?embed=1&puzzle=daily&lang=de", width=320, height=420)
    expect(game.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    frame.evaluate(GRAB_INTERPRETER)
    code = (
        EVERY_DAILY.replace("LANGS", repr(LONG_LANGUAGES))
        .replace("COUNT", str(len(puzzles())))
        .replace("START", f"date.fromisoformat({PINNED_DAY.isoformat()!r})")
    )
    boxes = json.loads(frame.evaluate("(code) => __py.runPythonAsync(code)", code))
    assert {b["puzzle"] for b in boxes} == {p.id for p in puzzles()}
    assert len(boxes) == len(puzzles()) * len(LONG_LANGUAGES)
    smallest = min(boxes, key=lambda b: b["board"][2] - b["board"][0])
    for box in boxes:
        assert_fits(box)
    show = SHOW_ONE.replace("LANG", repr(smallest["lang"])).replace("ID", repr(smallest["puzzle"]))
    frame.evaluate("(code) => __py.runPythonAsync(code)", show)
    shot(page, "puzzle-embed-320x420-smallest-board")


def test_a_bad_puzzle_value_changes_nothing(open_app: Opener, page: Page) -> None:
    page = open_app("?size=4&lang=de")
    write(page, 1, 1, "O")
    wait_saved(page, "Ob2")  # (saved a task after the move)
    games = game_keys(page)
    page = open_app("?puzzle=nope-404&lang=de")
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text("Es gibt kein Rätsel „nope-404“", timeout=30_000)
    expect(page.get_by_test_id("puzzle-dialog")).to_be_hidden()
    expect(page.locator('#board button.cell[data-row="1"][data-col="1"]')).to_have_text("O")
    assert game_keys(page) == games


def test_the_puzzle_board_reads_left_to_right_in_arabic(open_app: Opener, page: Page) -> None:
    """As the game's board: a1 top left in every language, and each SOS mark over its squares."""
    puzzle = next(p for p in puzzles() if p.rules.rows >= 5 and p.rules.mode == "general")
    page.set_viewport_size(PHONE)
    page = open_app(f"?lang=ar&puzzle={puzzle.id}")
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    xs = page.evaluate(
        """() => [...document.querySelectorAll('#puzzle-board button.cell[data-row="0"]')]
             .sort((a, b) => a.dataset.col - b.dataset.col)
             .map((c) => c.getBoundingClientRect().left)"""
    )
    assert xs == sorted(xs) and len(set(xs)) == len(xs), xs  # columns a, b, c... left to right
    labels = page.locator("#puzzle-cols").inner_text().split()
    assert labels[:2] == ["a", "b"], labels


def test_puzzle_panel_is_accessible_and_keyboard_playable(open_app: Opener, page: Page) -> None:
    puzzle = one_move_with_refutation()
    page = open_app(f"?puzzle={puzzle.id}")
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    results = Axe().run(page, options={"resultTypes": ["violations"]})
    serious = [v for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, results.generate_report()
    solution = puzzle.line[0]
    cell(page, solution).focus()
    page.keyboard.press(solution.letter)
    expect(page.get_by_test_id("puzzle-feedback")).to_contain_text("Solved")


def test_the_puzzles_button_opens_the_set_and_the_file_is_precached(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page = open_app("?size=6")
    assert not any(url.endswith("/" + DATA_PATH) for url in requests)  # not at start
    page.get_by_test_id("puzzles").click()
    dialog = page.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    # a new player (rating 1500) gets the first puzzle of difficulty 3 (rated 1500)
    first = next(p for p in puzzles() if p.rating == 3)
    expect(dialog).to_have_attribute("data-puzzle", first.id)
    assert any(url.endswith("/" + DATA_PATH) for url in requests)
    page.get_by_test_id("puzzle-daily").click()
    expect(page.get_by_test_id("puzzle-title")).to_contain_text("Daily puzzle")
    shot(page, "puzzle-desktop-en")
    sw = (ROOT / "sw.js").read_text(encoding="utf-8")
    assert DATA_PATH in sw  # precached for offline use


@pytest.mark.unrouted
def test_the_daily_puzzle_offline_from_the_service_worker(
    new_context: Callable[..., Any], site_url: str, wait_ready: Callable[..., float]
) -> None:
    context = new_context()
    page = context.new_page()
    page.goto(site_url + "index.html?size=5")
    wait_ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
    context.set_offline(True)
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(site_url + "index.html?puzzle=daily")
    wait_ready(page)
    expect(page.get_by_test_id("puzzle-dialog")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("puzzle-title")).to_contain_text("Daily puzzle")
    data = [r for r in responses if r.url.endswith("/" + DATA_PATH)]
    assert data and all(r.from_service_worker for r in data), [r.url for r in data]
