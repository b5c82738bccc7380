"""The small things of issue 26 (items 5 and 9), in English, German and Arabic: the puzzles'
difficulty choice, the last move's highlight (a ring, no fill over the SOS marks), the phone's
move list (no empty padding, most turns in view), and the embed's "Open the full game ↗" on
one line at 320x420."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from helpers import settle
from playwright.sync_api import Page, expect

from sos import Rules, new_game
from sos.ai.agents import make_agent
from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, parse_puzzles
from sos.app.saving.transcript import encode_moves

Opener = Callable[..., Page]
ROOT = Path(__file__).resolve().parents[2]


@cache
def puzzles() -> dict[str, Puzzle]:
    return {p.id: p for p in parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))}


@cache
def long_game(size: int, plies: int) -> str:
    """A share code of ``plies`` moves of two easy players (seeded)."""
    state = new_game(Rules.square(size))
    agents = [make_agent("easy", seed=3), make_agent("easy", seed=4)]
    while not state.is_terminal() and len(state.history) < plies:
        state.apply(agents[state.current_player()].choose_action(state))
    return encode_moves(state.history)


@pytest.mark.parametrize("lang", ["en", "de", "ar"])
def test_the_difficulty_chooses_easier_or_harder_puzzles(
    open_app: Opener, page: Page, lang: str
) -> None:
    page = open_app(f"?lang={lang}&puzzle=daily")
    dialog = page.get_by_test_id("puzzle-dialog")
    expect(dialog).to_be_visible(timeout=30_000)
    shown: dict[str, int] = {}
    for choice in ("easiest", "hardest"):
        page.get_by_test_id("puzzle-difficulty").select_option(choice)
        before = dialog.get_attribute("data-puzzle")
        page.get_by_test_id("puzzle-next").click()
        expect(dialog).not_to_have_attribute("data-puzzle", before or "")
        shown[choice] = puzzles()[dialog.get_attribute("data-puzzle") or ""].rating
    assert shown["easiest"] < shown["hardest"], shown


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_last_move_is_a_ring_that_leaves_the_marks_in_colour(
    open_app: Opener, page: Page, lang: str
) -> None:
    page = open_app(f"?size=3&lang={lang}&game=Sa1Ob1Sc1")  # the last move completed an SOS
    last = page.locator("button.cell.last")
    expect(last).to_have_count(1)
    other = page.locator('button.cell[data-row="0"][data-col="0"]')
    style = "(n) => { const s = getComputedStyle(n); return [s.backgroundColor, s.opacity]; }"
    assert last.evaluate(style) == other.evaluate(style)  # no grey fill, no fading
    assert last.evaluate("(n) => getComputedStyle(n).boxShadow") != "none"  # the ring
    # (the new SOS is drawn in with a short animation: its opacity ends at 1, not faded)
    expect(page.locator("#marks .mark").first).to_have_css("opacity", "1")
    expect(page.locator("#marks")).to_have_css("opacity", "1")


@pytest.mark.parametrize("lang", ["en", "de", "ar"])
def test_the_phone_move_list_shows_the_turns_without_empty_padding(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page = open_app(f"?size=6&lang={lang}&game={long_game(6, 24)}")
    page.locator("#notice-close").click()
    expect(page.get_by_test_id("notice")).to_be_hidden()
    # The list is scrolled to the current turn at the next frame, and aligned again by its
    # resize observer (the notice's room went to it): measured once those have run.
    settle(page)
    items = page.locator("#move-list li")
    turns = items.count()
    assert turns >= 10
    box = page.locator("#move-list").evaluate(
        """(list) => {
             const outer = list.getBoundingClientRect();
             const inside = [...list.querySelectorAll('li')].filter((li) => {
               const r = li.getBoundingClientRect();
               return r.top >= outer.top - 0.5 && r.bottom <= outer.bottom + 0.5;
             });
             const last = list.querySelector('li:last-child').getBoundingClientRect();
             return {shown: inside.length, height: outer.height, gap: outer.bottom - last.bottom,
                     scrolls: list.scrollHeight > list.clientHeight};
           }"""
    )
    shot(page, f"players-move-list-{lang}-phone")
    assert box["shown"] >= 6, box  # more than the four turns of before
    if not box["scrolls"]:  # everything fits: no empty space below the last turn
        assert box["gap"] <= 24, box


@pytest.mark.parametrize("lang", ["en", "de", "ar"])
def test_open_the_full_game_keeps_its_arrow_on_its_line(
    open_app: Opener, page: Page, lang: str
) -> None:
    page.set_viewport_size({"width": 320, "height": 420})
    page = open_app(f"?size=5&embed=1&lang={lang}")
    link = page.get_by_test_id("open-full")
    expect(link).to_be_visible()
    lines = link.evaluate(
        """(a) => {
             const range = document.createRange();
             range.selectNodeContents(a);
             const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
             const arrow = getComputedStyle(a, '::after').content;
             return {lines: tops.size, arrow};
           }"""
    )
    assert "↗" in lines["arrow"], lines
    # The text and its arrow: one line, or, where the text itself wraps, never the arrow
    # alone (a no-break space joins it to the last word).
    height = link.evaluate("(a) => a.getBoundingClientRect().height")
    line_height = link.evaluate("(a) => parseFloat(getComputedStyle(a).lineHeight)"
                                " || parseFloat(getComputedStyle(a).fontSize) * 1.2")
    assert height <= line_height * 1.5, (height, line_height, lines)
