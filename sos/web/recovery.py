"""How the page recovers (docs/reliability.md):

- **a fault** in one of its handlers (:mod:`sos.web.guard` catches it): the calm line in the
  notice bar (:func:`sos.app.fault.with_fault`) with Copy details, an open dialog closed (it
  would hide the line), the game in play saved
  under the library's lock, the page drawn again -- each step on its own, so that a page whose
  drawing fails still saves and says so; no computer turn is started from here (a computer
  whose step failed waits for the player's next action);
- **a tab that freezes** (``freeze``) makes a save still waiting for the lock at once (a frozen
  tab may be discarded without another event);
- **a tab that comes back** from the back/forward cache (``pageshow`` with ``persisted``) or
  from a freeze (``resume``): it heard no ``storage`` event meanwhile, so the game shown is
  compared with the stored one (:meth:`sos.app.tab.TabCore.catch_up`): another tab's or a
  link's moves are followed, this tab's own are never lost;
- **storage that keeps nothing** (refused, or a quota of zero): **Export this game** in the
  notice bar downloads the game in play as a library file (:func:`sos.app.fault.game_file`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document, window

from sos.app.fault import Fault, game_file, game_file_name, has_fault, with_fault
from sos.web import dialogs, guard
from sos.web.dom import by_id
from sos.web.render import render, render_notices
from sos.web.store import with_lock

if TYPE_CHECKING:
    from sos.web.page import Page


def _quietly(*steps: Any) -> None:
    """Run each step, ignoring its failure (the fault that led here is reported already)."""
    for step in steps:
        try:
            step()
        except Exception:
            continue


class Recovery:
    """The page's answers to faults and to a tab coming back (``page``: the running page)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.bar = guard.FaultBar(page.app.t)
        guard.install(self.on_fault)

    def listen(self) -> None:
        """Attach the lifecycle handlers and the notice bar's Export this game."""
        on = self.page.on
        on(window, "pageshow", self.on_pageshow)
        # A frozen tab may be discarded without another event: a save still waiting for the
        # library's lock is made now, as when the tab goes away (Saving.on_pagehide).
        on(document, "freeze", self.page.saving.on_pagehide)
        on(document, "resume", lambda _e: self.catch_up())
        on(by_id("notice-export"), "click", lambda _e: self.export_game())

    # ------------------------------------------------------------------ a fault
    def on_fault(self, fault: Fault) -> None:
        """Say it (one calm line, the details kept for Copy details), draw the page again,
        save the game in play."""
        app = self.page.app
        app.notices = with_fault(app.notices, app.storage)
        self.bar.details = guard.details_of(fault, app.storage, app.lang)
        _quietly(lambda: render_notices(app), self._close_dialogs, self._draw)
        with_lock(self._save)

    def _close_dialogs(self) -> None:
        """Back to the game, where the line shows (a modal dialog would hide it and keep the
        page's other controls out of reach)."""
        for dialog in document.querySelectorAll("dialog[open]"):
            _quietly(dialog.close)

    def _draw(self) -> None:
        page, app = self.page, self.page.app
        _quietly(
            lambda: render(
                app, page.board, page.computer.thinking, page.hint, dialogs.full_game_url(app)
            ),
            page.remote.render,
            page.review.render,
        )

    def _save(self) -> None:
        """Save the game in play (under the lock); never raises."""
        app = self.page.app
        before = app.game
        try:
            app.commit()
        except Exception as error:  # the save itself failed: the console says so
            said = f"sos: saving after a failure failed: {error!r}"
            _quietly(lambda: window.console.error(said))
        if has_fault(app.notices):  # the line follows what the save found ("saved" or not)
            app.notices = with_fault(app.notices, app.storage)
        if app.game is not before:  # followed another tab or kept as a copy
            _quietly(lambda: window.history.replaceState(None, "", app.location()), self._draw)
        _quietly(lambda: render_notices(app))

    # ------------------------------------------------------------------ coming back
    def on_pageshow(self, event: Any) -> None:
        """Back/forward cache: the page is shown again as it was left (``persisted``)."""
        if bool(getattr(event, "persisted", False)):
            self.catch_up()

    def catch_up(self) -> None:
        """The tab is back after events it could not hear: show the stored game when
        another tab or a link moved it on, save ours when storage lacks some of it."""
        page, app = self.page, self.page.app

        def task() -> None:
            if app.catch_up():
                window.history.replaceState(None, "", app.location())
                page.refresh()
            else:
                render_notices(app)

        with_lock(task)

    # ------------------------------------------------------------------ storage
    def export_game(self) -> None:
        """Download the game in play as a library file (storage keeps nothing here)."""
        from sos.web.backup import download, today

        record = self.page.app.game.to_record()
        download(
            game_file_name(record, today().isoformat()),
            game_file(record, float(window.Date.now())),
        )
