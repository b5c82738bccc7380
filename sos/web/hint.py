"""The Hint button: the search's best action marked on the board and the line under it ("Hint:
write S on e2. Perfect play: you win by 2."). The line is kept as what it says, not as text, and
drawn at each render in the page's language, so a language change shows it again in the new
language and direction (issue 50). What the line claims is :func:`sos.app.game.view.hint_text`'s;
the search is :meth:`sos.web.computer.Computer.hint`'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sos.app.game.view import hint_text
from sos.app.text.i18n import text
from sos.notation import Action
from sos.web.dom import by_id
from sos.web.guard import spawn

if TYPE_CHECKING:
    from sos.web.page import Page


class Hint:
    """The hint of the position shown: its :attr:`action` (marked on the board) and its line."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.action: Action | None = None
        self._line: Callable[[str], str] | None = None  # the line in a language

    def listen(self) -> None:
        self.page.on(by_id("hint-button"), "click", self.on_click)

    def clear(self) -> None:
        """The position changed: no hint (the next :meth:`render` empties its line)."""
        self.action, self._line = None, None

    def render(self, lang: str) -> None:
        """Write the hint's line in ``lang`` ("" without a hint)."""
        by_id("hint-text").textContent = self._line(lang) if self._line else ""

    def on_click(self, _event: Any) -> None:
        page = self.page
        if page.computer.thinking or not page.app.game.human_to_move():
            return
        spawn(self._show())

    async def _show(self) -> None:
        page = self.page
        button, game = by_id("hint-button"), page.app.game
        self._line = lambda lang: text(lang, "hint.thinking")
        self.render(page.app.lang)
        button.disabled = True
        try:
            found = await page.computer.hint(game)
        finally:
            button.disabled = not game.human_to_move()
        if found is None or found.action is None:  # the game changed meanwhile
            return
        state, action = game.state.clone(), found.action
        self.action = action
        page.select_letter(action.letter)  # tapping the marked square writes its letter
        self._line = lambda lang: hint_text(
            state, lang, action, found.value, found.exact, result=found.result
        )
        page.refresh()
