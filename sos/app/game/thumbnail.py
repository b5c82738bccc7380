"""A small drawing of a game's board for "Your games" (so entries can be told apart at a
glance): its letters where they stand and its SOSs in each player's colour. Pure: the page
draws it (:func:`sos.web.dialogs.render_games`).

It is computed from the position the list already replays for each entry it shows
(:meth:`sos.app.app.AppSession.entry`), so it costs nothing for the entries not shown: with
10 000 saved games, a page of the list still reads and draws only its own entries.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...state import GameState
from .view import LineView, lines_of


@dataclass(frozen=True)
class Thumbnail:
    """A board as the list draws it.

    Attributes:
        rows, cols: the board's size in squares.
        letters: ``(row, col, letter)`` for each written square, rows and columns from 0,
            in the order they were written.
        lines: the completed SOSs, each with the seat that scored it.
    """

    rows: int
    cols: int
    letters: tuple[tuple[int, int, str], ...]
    lines: tuple[LineView, ...]


def thumbnail(state: GameState) -> Thumbnail:
    """The drawing of ``state``'s board: O(moves), no search."""
    rules = state.rules
    letters = tuple((a.row, a.col, a.letter) for a in state.history)
    lines = tuple(
        LineView(line.r1, line.c1, line.r2, line.c2, player) for line, player in lines_of(state)
    )
    return Thumbnail(rules.rows, rules.cols, letters, lines)


__all__ = ["Thumbnail", "thumbnail"]
