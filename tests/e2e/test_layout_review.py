"""Layout while the game review is open (tests/e2e/test_layout.py covers the game itself): the
squares stay square on a desktop with the review panel beside the board, and in a 320×420 embed
of a 12×12 board for four players the coordinates scale with the shrunken board (each label
beside its row, inside the board) and the selected move's verdict shows whole; in the column
beside a desktop's board "Play from here" stays in view. Also the colours that tell things
apart on the board and the result card: the last move's frame, the keyboard's focus ring, the
winner's colour. Each case also runs the layout matrix's checks (tests/e2e/layout_check.js).
Screenshots: test-results/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import settle
from playwright.sync_api import Page, expect
from test_layout import CHECK
from test_layout_texts import _random_game
from test_review_page import query_for, random_game, wait_reviewed

from sos import Rules, new_game
from sos.app.share.remote import NAME_FIELD_MAX
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS

Opener = Callable[..., Page]

# the largest table: the human and easy computers in every other seat
SEATS = ",".join(["human"] + ["easy"] * (MAX_PLAYERS - 1))


@pytest.mark.parametrize(
    ("size", "viewports"), [(6, [(1280, 800), (1024, 700)]), (5, [(1280, 800)])]
)
def test_squares_stay_square_with_the_review_open(
    size: int,
    viewports: list[tuple[int, int]],
    page: Page,
    open_app: Opener,
    shot: Callable[[Page, str], Path],
) -> None:
    """One review computed per board (the slow part), then each window size in turn (the
    window resized with the review open, as a user would)."""
    width, height = viewports[0]
    page.set_viewport_size({"width": width, "height": height})
    open_app(query_for(random_game(size, 7)))
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    for width, height in viewports:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)  # the marks' draw-in animation
        shot(page, f"layout-review-{size}x{size}-{width}x{height}")
        sizes = page.locator("#board .cell").evaluate_all(
            "cells => cells.map(c => [c.getBoundingClientRect().width,"
            " c.getBoundingClientRect().height])"
        )
        assert len(sizes) == size * size
        assert all(abs(w - h) <= 1 for w, h in sizes), (width, height, sizes[:3])
        assert page.evaluate(CHECK, True) == [], (width, height)


def test_embed_review_of_a_big_board_keeps_coordinates_and_verdict(
    page: Page,
    open_app: Opener,
    shot: Callable[[Page, str], Path],
) -> None:
    page.set_viewport_size({"width": 320, "height": 420})
    state = new_game(Rules.square(MAX_APP_SIZE, "general", MAX_PLAYERS))
    # short: a quick review
    for action in random_game(MAX_APP_SIZE, 5, players=MAX_PLAYERS).history:
        if len(state.history) >= 6 and state.current_player() == 0:
            break  # the human to move: no computer plays on while the review is shown
        state.apply(action)
    open_app(query_for(state, f"&embed=1&lang=de&seats={SEATS}"))
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    settle(page)
    shot(page, f"layout-review-embed-{MAX_APP_SIZE}x{MAX_APP_SIZE}-de")
    board = page.locator("#board").bounding_box()
    assert board is not None and board["height"] < 200  # the case that once overflowed
    for span in page.locator("#coords-rows span").all():
        box = span.bounding_box()
        assert box is not None
        assert (
            board["y"] - 1 <= box["y"]
            and box["y"] + box["height"] <= board["y"] + board["height"] + 1
        ), (span.inner_text(), box, board)
    verdict = page.get_by_test_id("review-move")
    expect(verdict).not_to_have_text(re.compile(r"^\s*$"))
    assert verdict.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # no inner scrolling
    box = verdict.bounding_box()
    panel = page.get_by_test_id("review-panel").bounding_box()
    assert box is not None and panel is not None
    assert panel["y"] <= box["y"] and box["y"] + box["height"] <= panel["y"] + panel["height"] + 1
    assert page.evaluate(CHECK, True) == []


def test_play_from_here_stays_in_view_in_the_desktop_review_column(
    page: Page, open_app: Opener, shot: Callable[[Page, str], Path]
) -> None:
    """At 1280 x 800, under a notice, the review of a 4 x 4 game stepped back two moves: its
    summaries, graph and verdict are taller than the column's room; "Play from here" is seen
    whole inside the panel and the window (it was below the panel's fold, cut off), and so are
    the heading's buttons."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_app(query_for(random_game(4, 3), "&seats=human,hard"))
    expect(page.get_by_test_id("notice")).to_be_visible()  # "Shared game loaded: 16 moves."
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    for _ in range(2):
        page.get_by_test_id("review-prev").click()
    play = page.get_by_test_id("review-play")
    expect(play).to_be_visible()
    settle(page)
    shot(page, "layout-review-play-from-here-1280x800")
    panel = page.get_by_test_id("review-panel").bounding_box()
    assert panel is not None
    for selector in ("#review-play", "#review-prev", "#review-close"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert panel["y"] - 0.5 <= box["y"] and box["y"] + box["height"] <= min(
            panel["y"] + panel["height"], 800) + 0.5, (selector, box, panel)
        hit = page.locator(selector).evaluate(
            "e => { const r = e.getBoundingClientRect(); return e.contains("
            "document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
        assert hit, selector
    assert page.evaluate(CHECK, True) == []


def _lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (c / 255 for c in rgb[:3])
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b))
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_is_told_apart_from_the_last_move_frame(
    page: Page, open_app: Opener, shot: Callable[[Page, str], Path], scheme: str
) -> None:
    """The last square focused from the keyboard: its focus ring (outline) and the last move's
    frame (an inset shadow) differ clearly in colour -- a CIE76 colour difference of 50 or
    more (the dark red-brown ring and the orange-brown frame were 33 apart in the light theme,
    24 in the dark) --, each keeps 3:1 against the paper, and the frame still shows inside
    the ring."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.set_viewport_size({"width": 390, "height": 844})
    open_app("?size=5&game=Sa1Ob2")
    last = page.locator("button.cell.last")
    last.focus()
    page.keyboard.press("ArrowRight")  # a key press: the focus is the keyboard's
    page.keyboard.press("ArrowLeft")
    expect(last).to_be_focused()
    assert last.evaluate("e => e.matches(':focus-visible')")
    shot(page, f"layout-focus-on-last-{scheme}")
    ring, frame, width, paper = last.evaluate(
        """e => { const s = getComputedStyle(e);
             return [s.outlineColor, s.boxShadow, parseFloat(s.outlineWidth),
                     getComputedStyle(document.getElementById('board-wrap')).backgroundColor]; }"""
    )
    spread = float(re.findall(r"([\d.]+)px", frame)[-1])  # "rgb(…) 0px 0px 0px 6px inset"
    ring_rgb, frame_rgb, paper_rgb = _rgb(ring), _rgb(frame), _rgb(paper)
    difference = sum((x - y) ** 2 for x, y in zip(_lab(ring_rgb), _lab(frame_rgb), strict=True))
    assert difference ** 0.5 >= 50, (scheme, ring, frame, difference ** 0.5)
    assert _contrast(ring_rgb, paper_rgb) >= 3, (scheme, ring, paper)
    assert _contrast(frame_rgb, paper_rgb) >= 3, (scheme, frame, paper)
    assert spread > width, (frame, width)  # the frame inside the ring


@pytest.mark.parametrize(
    ("game", "winner"), [(_random_game(5, 2, 1), 1), (_random_game(5, 2, 0), 0),
                         ("Sc1Sc2Sb3Sc3Oa1Ob2Sa3Ob1Sa2", None)],
    ids=["computer-wins", "player-wins", "draw"],
)
def test_the_result_card_takes_the_winners_colour(
    page: Page, open_app: Opener, shot: Callable[[Page, str], Path], game: str, winner: int | None
) -> None:
    """The result card's border is the winner's colour (the red computer's win had a blue
    border, the first player's colour); a draw's is none of the players'."""
    page.set_viewport_size({"width": 1280, "height": 800})
    size = 3 if winner is None else 5
    open_app(f"?size={size}&seats=human,hard&game={game}")
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    shot(page, f"layout-result-border-{winner}")
    border = _rgb(result.evaluate("e => getComputedStyle(e).borderTopColor"))
    colours = [_rgb(page.get_by_test_id(f"score-{seat}").evaluate(
        "e => getComputedStyle(e).color")) for seat in (0, 1)]
    if winner is None:
        assert border not in colours, (border, colours)
    else:
        assert border == colours[winner], (border, colours, winner)


def test_four_players_on_a_phone_make_an_even_grid_with_a_long_name(
    page: Page,
    open_app: Opener,
    shot: Callable[[Page, str], Path],
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_app("?players=4&seats=human,human,easy,medium&lang=de")
    page.get_by_test_id("settings").click()
    seat = page.get_by_test_id("settings-seat-0")
    expect(seat.locator("option").nth(0)).to_have_text("Mensch")
    expect(seat.locator("option").nth(1)).to_have_text("Leicht")
    name = page.get_by_test_id("settings-name-1")
    name.fill("Bernd-Friedrich von Hohenzollern-Sigmaringen")
    expect(name).to_have_value("Bernd-Friedrich von Hohenzollern-Sigmaringen")  # 44: whole
    assert name.evaluate("(e) => e.maxLength") == NAME_FIELD_MAX  # the app cuts at a word
    for field in ("remote-my-name", "remote-name"):  # a friend game's names: the same limit
        assert page.locator(f"#{field}").evaluate("(e) => e.maxLength") == NAME_FIELD_MAX
    page.get_by_test_id("settings-start").click()
    settle(page)
    shot(page, "layout-phone-4-players-long-name")
    boxes = [c.bounding_box() for c in page.locator("#players .player").all()]
    assert len(boxes) == 4 and all(b is not None for b in boxes)
    widths = {round(b["width"]) for b in boxes if b}
    tops = sorted({round(b["y"]) for b in boxes if b})
    assert max(widths) - min(widths) <= 1, widths  # every card the same width
    assert len(tops) == 2, tops  # two rows of two
    assert page.evaluate(CHECK, False) == []


def _luminance(rgb: tuple[float, ...]) -> float:
    channels = [c / 255 for c in rgb[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _rgb(css: str) -> tuple[float, ...]:
    numbers = re.findall(r"[\d.]+", css)
    return tuple(float(n) for n in numbers[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_last_move_frame_stands_out_in_both_themes(
    page: Page, open_app: Opener, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_app("?size=5&game=Sa1Ob2")
    shadow = page.locator("button.cell.last").evaluate("n => getComputedStyle(n).boxShadow")
    paper = page.locator("#board-wrap").evaluate("n => getComputedStyle(n).backgroundColor")
    ring = _luminance(_rgb(shadow))
    ground = _luminance(_rgb(paper))
    ratio = (max(ring, ground) + 0.05) / (min(ring, ground) + 0.05)
    assert ratio >= 3, (scheme, shadow, paper, ratio)  # WCAG 2.2 non-text contrast


def test_the_embed_footer_separates_its_links_after_a_puzzle(
    page: Page, open_app: Opener, shot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size({"width": 320, "height": 420})
    open_app("?puzzle=daily&lang=de&embed=1")
    page.get_by_test_id("puzzle-close").click(timeout=30_000)
    back = page.get_by_test_id("embed-puzzle")
    full = page.get_by_test_id("open-full")
    expect(back).to_be_visible()  # the dialog's close event shows it, a task later
    expect(full).to_be_visible()
    shot(page, "layout-embed-puzzle-closed")
    after = back.evaluate("n => getComputedStyle(n, '::after').content")
    assert "·" in after, after  # "Zurück zum Rätsel · Ganzes Spiel öffnen"
    gap = page.evaluate(
        """() => {
             const b = document.getElementById('embed-puzzle').getBoundingClientRect();
             const a = document.getElementById('open-full').getBoundingClientRect();
             return a.top >= b.bottom - 1 ? null : a.left - b.right;
           }"""
    )
    assert gap is None or gap >= 0, gap  # on one line they never overlap
    assert page.evaluate(CHECK, True) == []


@pytest.mark.parametrize("lang", ["de", "ar"])
def test_a_short_frame_shows_the_provisional_puzzle_rating_uncut(
    page: Page, open_app: Opener, lang: str
) -> None:
    """At 320x420 the rating shares its line with the difficulty: it shows without its
    provisional note ("Rätselwertung: 1500?"), whole, and keeps the note in its title and for
    screen readers (the full text visually hidden, the short one aria-hidden)."""
    page.set_viewport_size({"width": 320, "height": 420})
    open_app(f"?puzzle=daily&lang={lang}&embed=1")
    rating = page.get_by_test_id("puzzle-rating")
    short, full = rating.locator(".rating-short"), rating.locator(".rating-full")
    expect(short).to_have_text(re.compile(r"^\S.*: 1500[?؟]$"), timeout=30_000)
    expect(short).to_be_visible()
    assert short.get_attribute("aria-hidden") == "true"
    assert rating.evaluate("n => n.scrollWidth <= n.clientWidth"), "the rating is cut"
    note = rating.get_attribute("title") or ""
    assert note == full.text_content() and len(note) > len(short.text_content() or "") + 5
