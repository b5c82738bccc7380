"""The page as its feature modules see it: :class:`Page`, a typed ``Protocol`` of what
they use of the running page. :class:`sos.web.main.Page` is its one implementation (mypy checks
it where main.py hands itself over; tests/tools/test_page_interface.py checks it has every
member), and no module but main.py imports sos.web.main: main.py imports the feature modules,
never the other way round. The panels see less of the page (:class:`sos.web.host.Host`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from sos.web.host import Host

if TYPE_CHECKING:
    from sos.app.app import AppSession
    from sos.notation import Action
    from sos.web.computer import Computer
    from sos.web.panels import Panels
    from sos.web.remote import RemotePanel
    from sos.web.render import BoardView
    from sos.web.review import ReviewPanel
    from sos.web.saving import Saving
    from sos.web.stats import StatsPanel


class Page(Host, Protocol):
    """The running page: the panels' :class:`~sos.web.host.Host` (handlers, redraws), the tab's
    session and the page's parts, and the few actions the keyboard, the header and the fault
    recovery take."""

    @property
    def app(self) -> AppSession:
        """The tab's decisions (the same object for the page's lifetime)."""

    @property
    def board(self) -> BoardView:
        """The board drawn (its cells, the focus)."""

    @property
    def computer(self) -> Computer:
        """The computer seats' searches, stepped in slices."""

    @property
    def hint(self) -> Action | None:
        """The hint shown on the board, if any."""

    @property
    def panels(self) -> Panels:
        """The dialogs (settings, "Your games", puzzles)."""

    @property
    def remote(self) -> RemotePanel:
        """The parts of a game by link (its panel, its undo)."""

    @property
    def review(self) -> ReviewPanel:
        """The review of the game shown."""

    @property
    def saving(self) -> Saving:
        """The page's save handlers."""

    @property
    def stats(self) -> StatsPanel:
        """The Statistics view."""

    def play(self, row: int, col: int) -> None:
        """Play the letter chosen on the square (``row``, ``col``) of the game shown."""

    def apply_theme(self) -> None:
        """Apply the theme chosen to the page."""

    def translate(self) -> None:
        """Write the page's fixed texts in the page's language."""
