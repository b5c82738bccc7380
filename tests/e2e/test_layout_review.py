"""Layout while the game review is open (tests/e2e/test_layout.py covers the game itself): the
squares stay square on a desktop with the review panel beside the board, and in a 320×420 embed
of a 12×12 board for four players the coordinates scale with the shrunken board (each label
beside its row, inside the board) and the selected move's verdict shows whole. Each case also
runs the layout matrix's checks (tests/e2e/layout_check.js). Screenshots: test-results/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page
from test_layout import CHECK
from test_review_page import query_for, random_game, wait_reviewed

Opener = Callable[..., Page]


@pytest.mark.parametrize(
    ("size", "width", "height"), [(6, 1280, 800), (5, 1280, 800), (6, 1024, 700)]
)
def test_squares_stay_square_with_the_review_open(
    size: int,
    width: int,
    height: int,
    page: Page,
    open_app: Opener,
    shot: Callable[[Page, str], Path],
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_app(query_for(random_game(size, 7)))
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    page.wait_for_timeout(350)  # the marks' draw-in animation
    shot(page, f"layout-review-{size}x{size}-{width}x{height}")
    sizes = page.locator("#board .cell").evaluate_all(
        "cells => cells.map(c => [c.getBoundingClientRect().width,"
        " c.getBoundingClientRect().height])"
    )
    assert len(sizes) == size * size
    assert all(abs(w - h) <= 1 for w, h in sizes), sizes[:3]
    assert page.evaluate(CHECK, True) == []
