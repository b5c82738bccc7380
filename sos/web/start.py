"""The first screen's start choice on the page (:mod:`sos.app.start` decides when it shows and
what each choice starts): "Play against: the computer · a friend here · a friend by link", a
row above the board while the game shown has no move or only its first one (a square tapped
before the engine was ready is kept: the game in play takes the seats chosen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import window

from sos.app.game.view import seat_choice
from sos.app.share.params import seat_kinds_for
from sos.app.start import MIXED, apply, chosen, level_of, offered, start_for, with_level
from sos.web.dom import by_id, element

if TYPE_CHECKING:
    from sos.web.page import Page


def listen(page: Page) -> None:
    """Attach the choice's handler (one for the row: ``data-start`` names the choice)."""
    page.on(by_id("start-choice"), "click", lambda event: choose(page, event))
    page.on(by_id("start-level"), "change", lambda event: choose_level(page, event))


def choose_level(page: Page, event: Any) -> None:
    """The level beside "the computer": the same board at once with that level (no move yet)."""
    wanted = with_level(page.app.settings(), str(event.target.value))
    if wanted is not None:
        _start(page, wanted)


def _start(page: Page, wanted: Any) -> None:
    """A new game of ``wanted`` (no move yet), or the game in play with its seats (its first
    move kept; the computer then answers it): :func:`sos.app.start.apply`."""
    if not offered(page.app.game.to_record(), page.app.embed):
        return  # the game moved on meanwhile (e.g. the friend here replied)
    if apply(page.app, wanted) == "new":
        page.shown()
    else:  # the same game with other seats: its address names them (``seats=``)
        window.history.replaceState(None, "", page.app.location())
        page.changed()


def choose(page: Page, event: Any) -> None:
    """The computer or a friend here: the same board at once with those seats (the game shown
    has no move, or its first move is kept); a friend by link: Settings with that option
    ticked."""
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
        _start(page, wanted)


def render(page: Page) -> None:
    """Show the row while :func:`sos.app.start.offered`; the current choice is pressed."""
    app = page.app
    box, select = by_id("start-choice"), by_id("start-level")
    box.hidden = not offered(app.game.to_record(), app.embed)
    if box.hidden:
        if select.options.length:  # no levels kept in an old language (drawn when shown)
            select.replaceChildren()
        return
    current = chosen(tuple(app.game.seats))
    for button in box.querySelectorAll("[data-start][aria-pressed]"):
        button.setAttribute("aria-pressed", "true" if button.dataset.start == current else "false")
    level = level_of(tuple(app.game.seats))
    select.hidden = level is None  # (the level of "the computer", once it is chosen)
    if level is not None:  # (MIXED: shown first and not choosable: a level is chosen for all)
        levels = ((MIXED,) if level == MIXED else ()) + seat_kinds_for(app.settings().size)[1:]
        select.replaceChildren(*[element("option", "", seat_choice(app.lang, k)) for k in levels])
        for option, kind in zip(select.options, levels, strict=True):
            option.value, option.disabled = kind, kind == MIXED
        select.value = level
