"""Three layout flaws found by testers, measured in the browser:

- an embed's messages (notices over the scores, ``div.messages``) show whole lines only -- the
  bottom edge of the area never cuts a line of text in half -- and show that more follows (a
  fade at the bottom edge while the area is not scrolled to its end);
- the "Game review" heading takes one line in the column beside a desktop's board (1280 x 800),
  at its readable size, in several languages;
- a player's name of the longest length keeps the letter choice (S / O) above the fold of a
  1280 x 800 desktop: the name is cut to two lines with an ellipsis in the side column, and the
  whole name stays in the page's text (for screen readers) and in a title.

Screenshots: test-results/fit-*.png.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import settle
from playwright.sync_api import Page, expect
from test_layout import CHECK
from test_review_page import query_for, random_game, wait_reviewed

Opener = Callable[..., Page]
Shot = Callable[[Page, str], Path]

DESKTOP = (1280, 800)


def _size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


# --------------------------------------------------------------------------- the review heading


@pytest.mark.parametrize("lang", ["en", "de", "el"])
def test_the_review_heading_takes_one_line_beside_a_desktop_board(
    page: Page, open_app: Opener, shot: Shot, lang: str
) -> None:
    """The heading is one line high (its box no taller than one line box), at least 16 px,
    inside the panel, and the step buttons and × stay in the panel: beside a heading as short
    as English's or German's, under a longer one (Greek)."""
    _size(page, DESKTOP)
    open_app(query_for(random_game(4, 3)) + f"&lang={lang}")
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    settle(page)
    shot(page, f"fit-review-heading-{lang}")
    heading = page.locator("#review-title")
    size, line, height = heading.evaluate(
        "h => { const s = getComputedStyle(h);"
        " return [parseFloat(s.fontSize), parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize),"
        " h.getBoundingClientRect().height]; }"
    )
    assert size >= 16, size
    assert height < 1.5 * line, (lang, height, line)
    panel = page.get_by_test_id("review-panel").bounding_box()
    assert panel is not None
    for selector in ("#review-title", "#review-prev", "#review-next", "#review-end", "#review-close"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert panel["x"] <= box["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"], (
            selector, box, panel,
        )
    if lang in ("en", "de"):  # short enough for the buttons to stay on the heading's row
        title = heading.bounding_box()
        steps = page.locator(".review-steps").bounding_box()
        assert title is not None and steps is not None
        assert abs((title["y"] + title["height"] / 2) - (steps["y"] + steps["height"] / 2)) < 4
    assert page.evaluate(CHECK, True) == []
