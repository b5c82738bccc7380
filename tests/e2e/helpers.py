"""Small page helpers shared by the browser tests."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect


def cell(page: Page, row: int, col: int) -> Locator:
    """The button of square (row, col), both from 0."""
    return page.locator(f'button.cell[data-row="{row}"][data-col="{col}"]')


def write(page: Page, row: int, col: int, letter: str) -> None:
    """Choose ``letter`` with its button, click square (row, col) and wait for the letter."""
    page.get_by_test_id(f"letter-{letter}").click()
    cell(page, row, col).click()
    expect(cell(page, row, col)).to_have_text(letter)
