"""The page's keyboard (WAI-ARIA grid pattern for the board): S / O choose the letter and, on a
square, write it; the arrow keys, Home and End move the focus between squares (a roving
tabindex); Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes; Esc skips ahead while computers
play. Keys typed into a form field or while a
dialog is open are left alone (the puzzle dialog has its own handler)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import document

if TYPE_CHECKING:
    from sos.web.page import Page

#: Arrow key -> (rows, columns) to move.
ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}


def on_key(page: Page, event: Any) -> None:
    """The document's ``keydown`` handler."""
    target = event.target
    tag = str(target.tagName).lower() if target else ""
    if tag in ("input", "select", "textarea") or document.querySelector("dialog[open]"):
        return
    key = str(event.key)
    if (event.ctrlKey or event.metaKey) and not event.altKey:
        lower = key.lower()
        if lower == "z" and not event.shiftKey:
            page.remote.undo()  # (a game by link may ask first)
        elif lower == "y" or (lower == "z" and event.shiftKey):
            page.step(page.app.game.redo())
        else:
            return
        event.preventDefault()
        return
    if event.ctrlKey or event.metaKey or event.altKey:
        return
    if key == "Escape" and page.computer.running():  # skip ahead while computers play
        from sos.web.players import skip

        skip(page)
        event.preventDefault()
        return
    on_cell = bool(target and target.classList and target.classList.contains("cell"))
    if key.upper() in ("S", "O"):
        page.select_letter(key.upper())
        if on_cell:
            page.play(int(target.dataset.row), int(target.dataset.col))
        event.preventDefault()
    elif on_cell and (key in ARROWS or key in ("Home", "End")):
        move_focus(page, key)
        event.preventDefault()


def to_board(page: Page, event: Any) -> None:
    """The "Skip to the board" link: the focus goes to the board's square in the tab order
    (the one last focused; a1 at first), not only the view (the link's ``#board``, which is
    what it does before Python runs)."""
    event.preventDefault()
    r, c = page.board.focus
    page.board.cells[r][c].focus()


def move_focus(page: Page, key: str) -> None:
    """Move the board's focus by an arrow key, or to the row's first (Home) / last (End)
    square."""
    rules = page.app.game.state.rules
    board = page.board
    r, c = board.focus
    if key == "Home":
        c = 0
    elif key == "End":
        c = rules.cols - 1
    else:
        dr, dc = ARROWS[key]
        r, c = min(max(r + dr, 0), rules.rows - 1), min(max(c + dc, 0), rules.cols - 1)
    board.focus = (r, c)
    board.update_tabindex()
    board.cells[r][c].focus()
