"""The page's player controls (issue 26): Rematch on the result card, Skip ahead while
computers play (the button and Esc, see :mod:`sos.web.keys`), the language and the theme
applied as soon as they are chosen in Settings, and How to play opened at its top. Decides
nothing: rematch, names, language and theme are :class:`~sos.app.app.AppSession`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import window

from sos.web import locale
from sos.web.dom import by_id
from sos.web.guard import spawn

if TYPE_CHECKING:
    from sos.web.page import Page


def listen(page: Page) -> None:
    """Attach the handlers of the player controls."""
    on = page.on
    on(by_id("rematch"), "click", lambda _e: rematch(page))
    on(by_id("skip-button"), "click", lambda _e: skip(page))
    on(by_id("settings-lang"), "change", lambda e: choose_language(page, str(e.target.value)))
    on(by_id("settings-theme"), "change", lambda e: choose_theme(page, str(e.target.value)))
    on(by_id("help-button"), "click", lambda _e: open_help())


def rematch(page: Page) -> None:
    """The result card's Rematch: same settings and names, seats rotated."""
    page.app.rematch()
    page.shown()


def skip(page: Page) -> None:
    """Skip ahead: the computers' run plays on at once (its end is shown)."""
    if page.computer.skip():
        by_id("skip-button").hidden = True
        by_id("status").textContent = page.app.t("skip.running")


def choose_language(page: Page, lang: str) -> None:
    """A language chosen in Settings applies at once, as soon as its catalog is in (until
    then the page stays in the language it shows: no English between the two): the game
    stays, the whole page (live regions and open panels included) is shown again in that
    language (:meth:`~sos.web.page.Page.restyle`); the URL keeps it for a reload."""
    spawn(_choose_language(page, lang))


async def _choose_language(page: Page, lang: str) -> None:
    await locale.load(lang)  # (False offline without it: shown in English, as gettext does)
    if str(by_id("settings-lang").value) != lang:
        return  # a later choice, or Cancel meanwhile (it puts the menu back: Panels)
    app = page.app
    if lang == app.lang or not app.set_language(lang):
        return
    window.history.replaceState(None, "", app.location())
    page.restyle()


def choose_theme(page: Page, theme: str) -> None:
    """A theme chosen in Settings applies at once."""
    if page.app.set_theme(theme):
        page.apply_theme()


def open_help(_event: Any = None) -> None:
    """How to play, opened at its top with the title focused (not the Close button)."""
    dialog = by_id("help-dialog")
    dialog.showModal()
    dialog.scrollTop = 0
    by_id("help-title").focus()
