"""When the page saves: a change of the game shown is saved under the library's Web Lock
(:func:`sos.web.store.with_lock`), another tab's write or a cleared storage is answered under
the same lock, a tab shown again checks that its game is still stored, and a save still waiting
when the tab goes away is made at once. The decisions are :class:`sos.app.app.AppSession`'s."""

from __future__ import annotations

from typing import Any, Protocol

from pyscript import document, window

from sos.app.app import AppSession
from sos.app.saving.library import GAME_PREFIX
from sos.web import guard
from sos.web.dom import by_id
from sos.web.render import render_notices
from sos.web.store import with_lock

#: When the page checks the storage's keys against the library's index after the start (ms).
KEY_CHECK_MS = 3000


class _Backup(Protocol):
    def game_saved(self) -> None:
        """A game was saved (a finished one: ask the browser to keep the library)."""


class _Panels(Protocol):
    @property
    def backup(self) -> _Backup:
        """The export and import panel of "Your games"."""

    def render_games(self, deleted: str = "") -> None:
        """Draw "Your games" again."""


class SavingPage(Protocol):
    """What saving needs of the running page (:class:`sos.web.main.Page`)."""

    @property
    def app(self) -> AppSession:
        """The tab's decisions."""

    @property
    def panels(self) -> _Panels:
        """The dialogs (for "Your games")."""

    def on(self, target: Any, event: str, handler: Any) -> None:
        """Attach ``handler`` to ``event`` of ``target`` for the page's lifetime."""

    def refresh(self, announce: bool = False) -> None:
        """Draw the game shown again."""


class Saving:
    """The saves of the running page (``page``: :class:`sos.web.main.Page`)."""

    def __init__(self, page: SavingPage) -> None:
        self.page = page
        self.pending = 0  # saves waiting for the library's lock

    def listen(self) -> None:
        """Attach the storage, focus, visibility and page-hide handlers."""
        on = self.page.on
        on(window, "storage", self.on_storage)
        on(window, "focus", self.check_saved)
        on(document, "visibilitychange", self.check_saved)
        on(window, "pagehide", self.on_pagehide)
        # Once, when the start is over: list the storage's keys and bring the index up to
        # date with them (a build without the index may have written games behind it).
        guard.later(KEY_CHECK_MS, lambda: with_lock(self._check_keys), "check the storage's keys")

    def _check_keys(self) -> None:
        if self.page.app.library.check_keys() and by_id("games-dialog").open:
            self.page.panels.render_games()

    def save_later(self) -> None:
        """Save the game shown when the library's lock is free (a few milliseconds)."""
        self.pending += 1
        with_lock(self._save)

    def _save(self) -> None:
        self.pending -= 1
        page, app = self.page, self.page.app
        before = app.game
        app.commit()
        if app.game is not before:  # followed another tab or kept as a copy
            window.history.replaceState(None, "", app.location())
            page.refresh()
        else:
            render_notices(app)  # e.g. storage full
        page.panels.backup.game_saved()  # a finished game: ask the browser to keep the library

    def on_pagehide(self, _event: Any) -> None:
        """The tab goes away with a save still waiting for the lock: save now, unlocked
        (the write still compares content)."""
        if self.pending:
            self.pending = 0
            self.page.app.commit()

    def check_saved(self, _event: Any = None) -> None:
        """The tab is shown again or gets the focus: if storage was cleared meanwhile (and
        no event said so), write the game shown again."""
        if document.visibilityState != "visible":
            return

        def task() -> None:
            if self.page.app.ensure_saved(cleared_only=True):
                self.page.refresh()

        with_lock(task)

    def on_storage(self, event: Any) -> None:
        """Another tab wrote to storage (``key`` null: it cleared it): follow the game shown,
        or write it again where the other tab's write lost some of its moves or storage was
        cleared -- under the library's lock."""
        key = event.key if isinstance(event.key, str) else None
        page, app = self.page, self.page.app

        def task() -> None:
            if (key is None or key.startswith(GAME_PREFIX)) and app.external_change(key):
                window.history.replaceState(None, "", app.location())
                page.refresh()
            elif key is None:
                render_notices(app)
            if by_id("games-dialog").open:
                page.panels.render_games()

        with_lock(task)
