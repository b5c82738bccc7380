"""Text notation for actions and positions.

* An action is written ``S@b3``: the letter, ``@``, the column as a letter (``a`` is the left
  column) and the row as a number (``1`` is the top row), as in chess-like coordinates.
* A position is written row by row from the top, rows separated by ``/``, ``.`` for an empty
  square: ``S.S/.O./...``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

LETTERS: tuple[str, str] = ("S", "O")
EMPTY = "."

_ACTION_RE = re.compile(r"^\s*([SsOo])\s*@\s*([a-zA-Z])\s*([0-9]{1,2})\s*$")


class InvalidNotationError(ValueError):
    """Raised for text that is not a well-formed action, position or game record."""


def column_name(col: int) -> str:
    """Column index (0 = left) to its letter: ``0 -> "a"``."""
    return chr(ord("a") + col)


def square_name(row: int, col: int) -> str:
    """Square ``(row, col)`` (both from 0, row 0 at the top) to its name: ``(2, 1) -> "b3"``."""
    return f"{column_name(col)}{row + 1}"


class Action(NamedTuple):
    """Writing ``letter`` (``"S"`` or ``"O"``) on square ``(row, col)``, both counted from 0.

    ``str(action)`` gives the text form ``S@b3`` and :meth:`parse` reads it back; ``repr``
    pastes back as Python. Whether the action is legal is up to a game state.
    """

    row: int
    col: int
    letter: str

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``"S@b3"`` (case of the letters is ignored; surrounding spaces allowed).

        Raises:
            InvalidNotationError: if ``text`` is not of that form.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"an action must be text like 'S@b3', got {text!r}")
        match = _ACTION_RE.match(text)
        if match is None:
            raise InvalidNotationError(f"not an action: {text!r} (expected a form like 'S@b3')")
        letter, col, row = match.groups()
        row_number = int(row)
        if row_number < 1:
            raise InvalidNotationError(f"not an action: {text!r} (rows are numbered from 1)")
        return cls(row_number - 1, ord(col.lower()) - ord("a"), letter.upper())

    def __str__(self) -> str:
        return f"{self.letter}@{square_name(self.row, self.col)}"


def parse_position(text: str) -> list[str]:
    """Split a position ``"S.S/.O./..."`` into rows of ``"S"``, ``"O"`` and ``"."``.

    Returns:
        The rows as strings, top row first; all rows have the same length.

    Raises:
        InvalidNotationError: for an empty text, unequal rows or a character other than
            ``S``, ``O`` and ``.`` (lowercase ``s``/``o`` are accepted).
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidNotationError("a position must be non-empty text like 'S.S/.O./...'")
    rows = [row.strip().upper() for row in text.strip().split("/")]
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width or not row:
            raise InvalidNotationError(
                f"row {number} of the position has {len(row)} squares, expected {width}"
            )
        bad = set(row) - {"S", "O", EMPTY}
        if bad:
            raise InvalidNotationError(
                f"row {number} of the position has {''.join(sorted(bad))!r}; "
                "use S, O and '.' for an empty square"
            )
    return rows
