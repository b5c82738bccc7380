"""Asking the browser to keep the library: ``navigator.storage.persist()`` called once, when a
finished game is saved or "Your games" is opened with a game worth keeping, and
``navigator.storage.persisted()`` read for what "Your games" says. When, and what is said, are
:mod:`sos.app.saving.keep`'s decisions; this module makes the calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyscript import window

from sos.app.app import AppSession
from sos.app.saving.keep import (
    APP_DISPLAY_MODES,
    ASKING,
    BrowserFacts,
    Keeper,
    keep_status,
    library_worth_keeping,
)
from sos.app.text.message import Message
from sos.web import guard
from sos.web.guard import spawn
from sos.web.render import render_notices

#: How long a request may take before the page says that the browser is asking the person
#: (Chromium answers at once; Firefox shows a prompt and waits), in ms.
ASKING_AFTER_MS = 300


def _storage() -> Any | None:
    """``navigator.storage`` when it can be asked to persist, else None."""
    storage = getattr(window.navigator, "storage", None)
    if not storage or not hasattr(storage, "persist") or not hasattr(storage, "persisted"):
        return None
    return storage


def browser_facts() -> BrowserFacts:
    """The browser's user agent, the ``display-mode`` that matches and ``navigator.standalone``
    (iOS), for Safari's seven-day limit (:func:`sos.app.saving.keep.seven_day_rule`)."""
    navigator = window.navigator
    mode = ""  # no display-mode feature in this browser: none matches
    for candidate in (*APP_DISPLAY_MODES, "browser"):
        if window.matchMedia(f"(display-mode: {candidate})").matches:
            mode = candidate
            break
    standalone = getattr(navigator, "standalone", None)
    return BrowserFacts(str(navigator.userAgent), mode, standalone is True)


class KeepPanel:
    """The request for persistent storage of one tab.

    Args:
        app: the tab's session (its storage and library).
        changed: called when the answer is in (to say it in "Your games" when it is open).
    """

    def __init__(self, app: AppSession, changed: Callable[[], None]) -> None:
        self.app = app
        self.changed = changed
        store = app.library.store if app.storage != "refused" else None
        self.keeper = Keeper(store)
        self.asking = False

    def game_saved(self) -> None:
        """After a save: a finished game is the moment to ask (once)."""
        if self.app.game.outcome is not None:
            self._ask()

    def games_opened(self) -> None:
        """ "Your games" was opened: ask (once) when the library holds a game worth keeping."""
        game = self.app.game
        if self.keeper.should_ask() and (
            game.outcome is not None or library_worth_keeping(self.app.library)
        ):
            self._ask()

    def _ask(self) -> None:
        if self.asking or not self.keeper.should_ask() or self.app.embed:
            return
        if self.app.storage == "refused":
            return  # nothing to keep
        storage = _storage()
        if storage is None:
            self.keeper.answered("unsupported", float(window.Date.now()))
            return
        self.asking = True
        spawn(self._request(storage))

    async def _request(self, storage: Any) -> None:
        guard.later(ASKING_AFTER_MS, self._say_asking, "keep: say asking")
        try:
            granted = bool(await storage.persisted()) or bool(await storage.persist())
            answer = "granted" if granted else "denied"
        except Exception:  # a browser that refuses the call (e.g. in a sandboxed frame)
            answer = "failed"
        self.asking = False
        self.keeper.answered(answer, float(window.Date.now()))
        if ASKING in self.app.notices:
            self.app.notices.remove(ASKING)
            render_notices(self.app)
        self.changed()

    def _say_asking(self) -> None:
        """The browser is still asking (a prompt): say why the site asks."""
        if self.asking and ASKING not in self.app.notices:
            self.app.notices.append(ASKING)
            render_notices(self.app)

    async def status(self) -> Message:
        """What "Your games" says about keeping the library now."""
        persisted: bool | None = None
        storage = _storage()
        if storage is not None:
            try:
                persisted = bool(await storage.persisted())
            except Exception:
                persisted = None
        return keep_status(self.app.storage, persisted, browser_facts())
