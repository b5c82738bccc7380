"""What the page's panels may ask of the page (:class:`~sos.web.main.Page`), as a typed
``Protocol``: attach a handler, and redraw after a change. The panels hold the tab's
:class:`~sos.app.app.AppSession` themselves (the same object for the page's lifetime) and call
it directly; everything else they need is passed to them when they are made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Host(Protocol):
    """The page as its panels see it."""

    def on(self, target: Any, event: str, handler: Callable[[Any], object]) -> None:
        """Attach ``handler`` to ``target``'s ``event`` for the page's lifetime."""

    def refresh(self, announce: bool = False) -> None:
        """Render the game shown (nothing saved)."""

    def changed(self, announce: bool = False) -> None:
        """The game shown changed: save it, then render."""

    def shown(self) -> None:
        """Another game is shown: a new history entry, save, render."""

    def step(self, done: bool) -> None:
        """After undo/redo/go-to: save and render when ``done``."""

    def restyle(self) -> None:
        """The theme or the language changed: apply them to the whole page (the game drawn
        again, an open Statistics too)."""

    def select_letter(self, letter: str) -> None:
        """Choose the letter written next (``S`` or ``O``)."""
