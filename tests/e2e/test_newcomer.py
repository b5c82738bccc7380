"""What a new player meets, round four (issue 43): the result and the rematch against the
computer, names cut at a word, the words of Settings and How to play, the difficulty and the
level offered -- at a phone (390x844) and a desktop (1280x800)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

Opener = Callable[..., Page]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def sized(page: Page, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_you_win_against_the_computer_and_the_rematch_says_your_new_seat(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], size: str
) -> None:
    """One person beats the computer: "You win", not "Player 1 wins"; Rematch rotates the
    seats and says so: the person is now Player 2, in red, and the computer moves first."""
    sized(page, size)
    page = open_app("?size=3&mode=simple&seats=human,easy&game=Sa1Ob1Sc1")
    expect(page.get_by_test_id("status")).to_have_text("You win with the first SOS")
    expect(page.get_by_test_id("result")).to_contain_text("You win")
    shot(page, f"newcomer-you-win-{size}")
    page.get_by_test_id("rematch").click()
    expect(page.locator("#players li[data-player='1']")).to_have_attribute("data-kind", "human")
    expect(page.locator("#notice-list li")).to_have_text(  # (not the old game's notice)
        ["Rematch: you are now Player 2, in red (struck through); Computer 1 moves first."]
    )
    shot(page, f"newcomer-rematch-{size}")
    # With two people on one device, a win is still named ("Player 1 wins"), no rematch notice.
    page = open_app("?size=3&mode=simple&game=Sa1Ob1Sc1")
    expect(page.get_by_test_id("status")).to_have_text("Player 1 wins with the first SOS")
    page.get_by_test_id("rematch").click()
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")
    expect(page.get_by_test_id("notice")).not_to_contain_text("Rematch")
