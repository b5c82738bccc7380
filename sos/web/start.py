"""The first screen's start choice on the page (:mod:`sos.app.start` decides when it shows and
what each choice starts): "Play against: the computer · a friend here · a friend by link", a
row above the board while the game shown has no move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sos.app.start import chosen, offered, start_for
from sos.web.dom import by_id

if TYPE_CHECKING:
    from sos.web.main import Page


def listen(page: Page) -> None:
    """Attach the choice's handler (one for the row: ``data-start`` names the choice)."""
    page.on(by_id("start-choice"), "click", lambda event: choose(page, event))


def choose(page: Page, event: Any) -> None:
    """The computer or a friend here: the same board at once with those seats (the game shown
    has no move, so nothing is lost); a friend by link: Settings with that option ticked."""
    button = event.target.closest("[data-start]")
    if not button:
        return
    choice = str(button.dataset.start)
    if choice == "link":
        page.panels.open_settings(None)
        by_id("settings-remote").checked = True
        page.remote.sync_settings()
        return
    wanted = start_for(page.app.settings(), choice)
    if wanted is not None:
        page.new_game(wanted)


def render(page: Page) -> None:
    """Show the row while :func:`sos.app.start.offered`; the current choice is pressed."""
    app = page.app
    box = by_id("start-choice")
    box.hidden = not offered(app.game.to_record(), app.embed)
    if box.hidden:
        return
    current = chosen(tuple(app.game.seats))
    for button in box.querySelectorAll("[data-start][aria-pressed]"):
        button.setAttribute("aria-pressed", "true" if button.dataset.start == current else "false")
