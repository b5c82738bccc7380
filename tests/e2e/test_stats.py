"""The Statistics dialog's layout (issue 26): at a phone (360x740), a 320x420 window and a
desktop, in English, German and Arabic, the record never scrolls sideways, the chart has a
legend in the page's language, the charts' labels are inside their boxes (also right to left),
and no empty message leaves a gap."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import write
from playwright.sync_api import Page, expect

from sos.app.learn.rating import RATING_KEY, RatingBook
from sos.app.text.i18n import text
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE

Opener = Callable[..., Page]
SIZES = {"phone": (360, 740), "small": (320, 420), "desktop": (1280, 800)}
# Finished games against the computer, opened by link (simple mode, the first SOS ends it):
# a win against hard on the smallest board, a loss against hard on the largest, a win against
# easy on 4x4.
GAMES = (
    (str(MIN_APP_SIZE), "human,hard"), (str(MAX_APP_SIZE), "hard,human"), ("4", "human,easy")
)


def rating_history() -> str:
    """A stored puzzle rating with six results (solved, failed, solved, ...)."""
    book = RatingBook.load(None)
    for index in range(6):
        book.record(f"p{index}", 3, index % 2 == 0, 1.8e12 + index * 60_000)
    return book.dump()


def inside(page: Page, selector: str, box: str) -> bool:
    """Whether every element matching ``selector`` lies within the element ``box``."""
    return bool(page.evaluate(
        """([selector, box]) => {
             const outer = document.querySelector(box).getBoundingClientRect();
             return [...document.querySelectorAll(selector)].every((node) => {
               const r = node.getBoundingClientRect();
               return r.left >= outer.left - 0.5 && r.right <= outer.right + 0.5;
             });
           }""",
        [selector, box],
    ))


@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("de", "small"),
                                       ("ar", "phone"), ("ar", "desktop")])
def test_the_statistics_fit_and_explain_the_chart(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, size: str
) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    for board, seats in GAMES:
        page = open_app(f"?size={board}&mode=simple&seats={seats}&lang={lang}&game=Sa1Ob1Sc1")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [RATING_KEY, rating_history()])
    page = open_app(f"?lang={lang}")
    page.get_by_test_id("stats").click()
    dialog = page.get_by_test_id("stats-dialog")
    expect(page.get_by_test_id("stats-row")).to_have_count(3)
    expect(page.get_by_test_id("rating-chart")).to_be_visible()

    # The legend names the three colours as the table's columns do, in the page's language.
    legend = page.get_by_test_id("stats-legend").locator("li")
    expect(legend).to_have_text([text(lang, f"stats.col.{o}") for o in ("win", "draw", "loss")])
    colours = legend.evaluate_all(
        "items => items.map((li) => getComputedStyle(li, '::before').backgroundColor)"
    )
    segments = page.evaluate(
        """() => ["win", "draw", "loss"].map((o) => {
             const seg = document.querySelector(`#stats-chart rect.seg.${o}`);
             return seg ? getComputedStyle(seg).fill : null;
           })"""
    )
    # (no game was drawn: only the won and lost segments are drawn)
    assert segments[1] is None and [colours[0], colours[2]] == [segments[0], segments[2]]
    assert len(set(colours)) == 3, colours

    # Nothing scrolls sideways; every value of a row is shown.
    for box in (".stats-table-wrap", "#stats-dialog"):
        sizes = page.locator(box).evaluate("n => [n.scrollWidth, n.clientWidth]")
        assert sizes[0] <= sizes[1], (box, sizes)
    cells = page.get_by_test_id("stats-row").first.locator("th, td")
    expect(cells).to_have_count(6)
    for index in range(6):
        expect(cells.nth(index)).to_be_visible()
    # The charts' labels are inside the charts (a right-to-left page included).
    assert inside(page, "#stats-chart .chart-label", "#stats-chart")
    assert inside(page, "#rating-chart .chart-label", "#rating-chart")
    # No gap for a message not shown yet; after a reset the message is there.
    assert page.get_by_test_id("stats-message").evaluate("n => n.offsetHeight") == 0
    shot(page, f"stats-{lang}-{size}")
    dialog.evaluate("d => { d.scrollTop = d.scrollHeight; }")
    shot(page, f"stats-{lang}-{size}-end")
    page.get_by_test_id("stats-reset").click()
    expect(page.get_by_test_id("stats-message")).to_have_text(text(lang, "stats.reset.done"))
    assert page.get_by_test_id("stats-message").evaluate("n => n.offsetHeight") > 0


def test_before_any_game_or_puzzle_the_empty_charts_take_no_room(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page = open_app("?lang=en")
    page.get_by_test_id("stats").click()
    expect(page.get_by_test_id("stats-rating")).to_have_text(text("en", "stats.no_rating"))
    shot(page, "stats-empty")
    for chart in ("#stats-chart", "#rating-chart"):  # <svg>: the attribute, not .hidden
        expect(page.locator(chart)).to_be_hidden()
        assert page.locator(chart).evaluate("n => n.getBoundingClientRect().height") == 0


def test_the_game_just_finished_is_counted_once_its_save_lands(open_app: Opener) -> None:
    """Statistics opened while the last move's save still waits for the library's Web Lock
    (another tab holds it) fill in the finished game when the save lands, dialog open."""
    page = open_app("?size=3&mode=simple&seats=human,easy&game=Sa1Ob1")
    page.evaluate(  # hold the lock (sos.web.store.LOCK_NAME) as another tab would
        """() => new Promise((granted) => navigator.locks.request('sos-library',
             () => new Promise((release) => { window.__release = release; granted(); })))"""
    )
    write(page, 0, 2, "S")  # S-O-S on the first row: the human wins
    expect(page.get_by_test_id("result")).to_be_visible()
    page.get_by_test_id("stats").click()
    rows = page.get_by_test_id("stats-row")
    expect(page.get_by_test_id("stats-dialog")).to_be_visible()
    expect(rows).to_have_count(0)  # not stored yet: the save waits for the lock
    page.evaluate("window.__release()")
    expect(rows).to_have_count(1)
    assert rows.first.locator("th, td").all_inner_texts()[2:5] == ["1", "0", "0"]  # won


def test_undo_reset_stays_offered_after_closing_and_each_mode_shows_its_streak(
    open_app: Opener,
) -> None:
    """Issue 50, items 3 and 22: "Undo reset" is still there when Statistics is opened
    again (the reset keeps what it replaced), and each mode's line gives its record and
    winning streaks, levels written as Settings writes them ("Easy")."""
    page = open_app("?size=3&mode=simple&seats=human,easy&game=Sa1Ob1Sc1")  # a win, by link
    expect(page.get_by_test_id("result")).to_be_visible()
    page.get_by_test_id("stats").click()
    rows = page.get_by_test_id("stats-row")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("th")).to_have_text("Easy")
    expect(rows.first.locator("td").first).to_have_text("3 × 3 · Simple")
    expect(page.get_by_test_id("stats-modes").locator("li")).to_have_text(
        [text("en", "stats.mode_line", mode="Simple", win=1, draw=0, loss=0, current=1, best=1)]
    )
    page.get_by_test_id("stats-reset").click()
    expect(rows).to_have_count(0)
    page.locator("#stats-dialog [data-close]").click()
    expect(page.get_by_test_id("stats-dialog")).to_be_hidden()
    page.get_by_test_id("stats").click()
    expect(page.get_by_test_id("stats-total")).to_have_text(text("en", "stats.empty"))
    expect(page.get_by_test_id("stats-modes")).to_be_hidden()
    undo = page.get_by_test_id("stats-undo")
    expect(undo).to_be_visible()
    undo.click()
    expect(rows).to_have_count(1)
    expect(page.get_by_test_id("stats-message")).to_have_text(text("en", "stats.reset.undone"))
    expect(undo).to_be_hidden()
