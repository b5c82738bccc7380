"""Render the game shown into the page: the board's buttons, marks, scores, status, move list,
other lines and the result. Reads the pure view model (:mod:`sos.app.game.view`); decides nothing.

Cells are touched only where their rendering changed (a per-cell cache), so a move costs a few
DOM writes, not a rebuild. :class:`BoardView` draws the puzzle dialog's board too
(:mod:`sos.web.puzzles`, its own element ids).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyscript import document

from sos.app.app import AppSession
from sos.app.fault import has_fault
from sos.app.game.view import PLAYER_STYLES, CellView, LineView, move_list, session_view
from sos.app.share.players import names_of
from sos.app.text.i18n import text
from sos.notation import Action, square_name
from sos.rules import Rules
from sos.web.dom import (
    by_id,
    draw_mark,
    element,
    render_move_list,
    render_players,
    show_result,
)
from sos.web.nobreak import seat_names, set_text


@dataclass(frozen=True)
class BoardIds:
    """The element ids of one board in the page: the grid, its wrapper (which carries
    ``--rows``/``--cols``), the SVG overlay of SOS marks, and the column / row coordinates."""

    board: str = "board"
    wrap: str = "board-wrap"
    marks: str = "marks"
    cols: str = "coords-cols"
    rows: str = "coords-rows"


class BoardView:
    """A board's cell buttons and what each one currently shows (the game's board, and the
    puzzle dialog's with ``ids`` of its own).

    ``roving``: only the focused square is in the tab order (:meth:`update_tabindex`; the
    game's board, whose arrow keys move the focus); otherwise every square is.
    """

    def __init__(self, ids: BoardIds = BoardIds(), roving: bool = True) -> None:
        self.ids = ids
        self.roving = roving
        self.rules: Rules | None = None
        self.cells: list[list[Any]] = []
        self.cache: dict[tuple[int, int], tuple[object, ...]] = {}
        self.lines: tuple[LineView, ...] = ()  # the SOS marks drawn
        self.focus = (0, 0)

    def build(self, rules: Rules) -> None:
        """Make the ``rules.rows`` x ``rules.cols`` grid of cell buttons (a new board). The
        board static/boot.js drew before Python ran (``data-static``: the same structure) is
        adopted when it has that size -- the same buttons, so a focused square keeps the focus;
        :meth:`show` then rewrites their letters and labels."""
        ids = self.ids
        board = by_id(ids.board)
        for node in (board, by_id(ids.wrap)):
            node.style.setProperty("--rows", str(rules.rows))
            node.style.setProperty("--cols", str(rules.cols))
        self.rules = rules
        self.cache = {}
        self.focus = (min(self.focus[0], rules.rows - 1), min(self.focus[1], rules.cols - 1))
        adopted = self._adopt(board, rules)
        if adopted is not None:
            self.cells = adopted
        else:
            board.replaceChildren()
            self.cells = []
            for r in range(rules.rows):
                row = element("div", "board-row")
                row.setAttribute("role", "row")
                buttons = []
                for c in range(rules.cols):
                    gridcell = element("div", "gridcell")
                    gridcell.setAttribute("role", "gridcell")
                    button = element("button", "cell")
                    button.type = "button"
                    button.dataset.row = str(r)
                    button.dataset.col = str(c)
                    gridcell.appendChild(button)
                    row.appendChild(gridcell)
                    buttons.append(button)
                board.appendChild(row)
                self.cells.append(buttons)
        marks = by_id(ids.marks)
        marks.replaceChildren()
        self.lines = ()
        marks.setAttribute("viewBox", f"0 0 {rules.cols} {rules.rows}")
        marks.setAttribute("preserveAspectRatio", "none")
        by_id(ids.cols).replaceChildren(
            *[element("span", "", square_name(0, c)[0]) for c in range(rules.cols)]
        )
        by_id(ids.rows).replaceChildren(
            *[element("span", "", square_name(r, 0)[1:]) for r in range(rules.rows)]
        )
        board.removeAttribute("aria-busy")

    def _adopt(self, board: Any, rules: Rules) -> list[list[Any]] | None:
        """The static page's cell buttons by row, if ``board`` holds them in ``rules``' size
        (once: a later build makes its own); their "pending" marks are dropped and a focused
        one becomes :attr:`focus`."""
        if board.getAttribute("data-static") != "1":
            return None
        board.removeAttribute("data-static")
        found = list(board.querySelectorAll("button.cell"))
        if len(found) != rules.rows * rules.cols:
            return None
        for button in found:
            button.classList.remove("pending")
        active = document.activeElement
        if active and active.classList.contains("cell") and board.contains(active):
            self.focus = (int(active.dataset.row), int(active.dataset.col))
        return [found[r * rules.cols : (r + 1) * rules.cols] for r in range(rules.rows)]

    def update_tabindex(self) -> None:
        """Roving tabindex: only the focused square is in the tab order (set where it
        changes)."""
        for r, row in enumerate(self.cells):
            for c, button in enumerate(row):
                focus = (r, c) == self.focus
                before = self.cache.get((r, c))
                if before is not None and before[5] == focus:
                    continue
                button.tabIndex = 0 if focus else -1
                if before is not None:
                    self.cache[(r, c)] = (*before[:5], focus)

    def show(
        self, cells: tuple[tuple[CellView, ...], ...], locked: bool, hint: Action | None = None
    ) -> None:
        """Show the squares of a view model: letter, accessible label, the last move, a
        suggested ``hint`` action; every square is ``aria-disabled`` while ``locked`` (and a
        written one always). Only the squares whose rendering changed are touched."""
        for row in cells:
            for cell in row:
                at = (cell.row, cell.col)
                hinted = hint.letter if hint is not None and (hint.row, hint.col) == at else ""
                focus = self.roving and at == self.focus
                disabled = bool(cell.letter) or locked
                wanted = (cell.letter, cell.label, cell.last, disabled, hinted, focus)
                before = self.cache.get(at)
                if before == wanted:
                    continue  # touch the DOM only where it changed
                self.cache[at] = wanted
                button = self.cells[cell.row][cell.col]
                button.textContent = cell.letter
                button.setAttribute("aria-label", cell.label)
                button.classList.toggle("last", cell.last)
                button.classList.toggle("hint", bool(hinted))
                button.dataset.hint = hinted
                if disabled:
                    button.setAttribute("aria-disabled", "true")
                else:
                    button.removeAttribute("aria-disabled")
                # (only when it changes: the focused square's forces a layout)
                if self.roving and (before is None or before[5] != focus):
                    button.tabIndex = 0 if focus else -1

    def show_marks(self, lines: tuple[LineView, ...]) -> None:
        """Bring the SVG overlay in line with ``lines``: only new SOSs are drawn (and so
        animated); a list that does not continue the drawn one (a new game, an undo, another
        game or puzzle) is drawn afresh."""
        marks = by_id(self.ids.marks)
        drawn = len(self.lines)
        if lines[:drawn] != self.lines or int(marks.childElementCount) != drawn:
            marks.replaceChildren()
            drawn = 0
        for line in lines[drawn:]:
            draw_mark(marks, line, PLAYER_STYLES[line.player % len(PLAYER_STYLES)])
        self.lines = lines


def render(
    app: AppSession, board: BoardView, thinking: bool, hint: Action | None, full_link: str
) -> None:
    """Show ``app``'s game: ``thinking`` marks a computer seat at work, ``hint`` a suggested
    action, ``full_link`` is the embed's "Open the full game" address."""
    game, lang = app.game, app.lang
    state = game.state
    if board.rules != state.rules:
        board.build(state.rules)
    names = names_of(game.record)
    vm = session_view(game, lang, thinking, names)
    element_board = by_id("board")
    element_board.setAttribute("aria-label", vm.board_label)
    element_board.classList.toggle("thinking", vm.thinking)
    board.show(vm.cells, vm.locked, hint)
    board.show_marks(vm.lines)
    render_players(vm.players, vm.thinking)
    units = seat_names(lang)  # "Computer 2" and scores ("21–0") never break across lines
    set_text(by_id("status"), vm.status, units, names)
    by_id("mode-text").textContent = text(lang, f"mode.{vm.mode}")
    by_id("hint-button").disabled = vm.locked
    by_id("undo-button").disabled = not game.can_undo()
    by_id("redo-button").disabled = not game.can_redo()
    render_move_list(
        move_list(state.rules, game.line, game.cursor, lang, game.seats, names),
        text(lang, "moves.empty"),
    )
    _render_other_lines(app)
    by_id("open-full").href = full_link
    winner = next((p.index for p in vm.players if p.winner), None)
    show_result(vm.result, f"{game.record.id}:{len(state.history)}", units, names, winner)


def _render_other_lines(app: AppSession) -> None:
    box = by_id("other-lines")
    items = by_id("other-lines-list")
    items.replaceChildren()
    lines = app.other_lines()
    box.hidden = not lines
    for index, split, length, first in lines:
        label = app.nt("lines.switch", length, ply=split + 1, action=first, moves=length)
        button = element("button", "button other-line", label)
        button.type = "button"
        button.dataset.line = str(index)
        button.dataset.testid = "other-line"
        item = element("li")
        item.appendChild(button)
        items.appendChild(item)


def render_notices(app: AppSession) -> None:
    """The notice bar: the queued notices (text only) and, when storage is full, a button to
    the list of games where old ones can be deleted; where storage keeps nothing, Export this
    game; after a fault, Copy details (docs/reliability.md)."""
    items = by_id("notice-list")
    items.replaceChildren()
    for message in app.notice_texts():
        items.appendChild(element("li", "", message))  # text only, never HTML
    by_id("notice-games").hidden = app.storage != "full"
    by_id("notice-export").hidden = app.storage != "refused" or not app.notices
    fault = has_fault(app.notices)
    by_id("fault-copy").hidden = not fault
    if not fault:
        by_id("fault-more").hidden = True
    by_id("notice").hidden = not app.notices


def translate_page(lang: str) -> None:
    """Fill every ``data-i18n*`` element of the page in ``lang``."""
    document.documentElement.lang = lang
    for node in document.querySelectorAll("[data-i18n]"):
        node.textContent = text(lang, node.dataset.i18n)
    for node in document.querySelectorAll("[data-i18n-aria]"):
        node.setAttribute("aria-label", text(lang, node.dataset.i18nAria))
    for node in document.querySelectorAll("[data-i18n-title]"):
        node.setAttribute("title", text(lang, node.dataset.i18nTitle))
    document.title = text(lang, "app.title")
