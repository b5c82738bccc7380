"""Board geometry: the S-O-S patterns through each square, precomputed once per board size.

Squares are indexed ``row * cols + col`` (row 0 at the top, column 0 at the left). A completed
SOS is reported as a :class:`Line` between its two S squares.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

#: The four line directions (d_row, d_col): row, column, diagonal, anti-diagonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


class Line(NamedTuple):
    """A completed S-O-S, given by its two end squares (the S's), smaller (row, col) first."""

    r1: int
    c1: int
    r2: int
    c2: int

    @classmethod
    def between(cls, a: tuple[int, int], b: tuple[int, int]) -> Line:
        """The line with end squares ``a`` and ``b`` (each ``(row, col)``) in canonical order."""
        first, second = (a, b) if a <= b else (b, a)
        return cls(first[0], first[1], second[0], second[1])

    def squares(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """The three squares ``(row, col)`` of the line, S, O, S."""
        mr, mc = (self.r1 + self.r2) // 2, (self.c1 + self.c2) // 2
        return (self.r1, self.c1), (mr, mc), (self.r2, self.c2)


class Pattern(NamedTuple):
    """One potential SOS through a square: the two other squares, and its line."""

    a: int  # for an S placed here: the O square; for an O placed here: one S square
    b: int  # for an S placed here: the far S square; for an O placed here: the other S square
    line: Line


class Geometry(NamedTuple):
    """Precomputed patterns for a ``rows`` x ``cols`` board.

    ``as_s[i]`` lists the (up to 8) SOSs that an S written on square ``i`` can complete (square
    ``a`` must hold O and ``b`` must hold S); ``as_o[i]`` the (up to 4) SOSs an O on square ``i``
    can complete (both ``a`` and ``b`` must hold S).
    """

    rows: int
    cols: int
    as_s: tuple[tuple[Pattern, ...], ...]
    as_o: tuple[tuple[Pattern, ...], ...]


def _inside(rows: int, cols: int, r: int, c: int) -> bool:
    # Explicit bounds check: a negative index must never wrap around.
    return 0 <= r < rows and 0 <= c < cols


@lru_cache(maxsize=64)
def geometry(rows: int, cols: int) -> Geometry:
    """The :class:`Geometry` of a ``rows`` x ``cols`` board (cached)."""
    as_s: list[tuple[Pattern, ...]] = []
    as_o: list[tuple[Pattern, ...]] = []
    for r in range(rows):
        for c in range(cols):
            s_list: list[Pattern] = []
            o_list: list[Pattern] = []
            for dr, dc in DIRECTIONS:
                # This square as the O in the middle: S at -d and +d.
                if _inside(rows, cols, r - dr, c - dc) and _inside(rows, cols, r + dr, c + dc):
                    o_list.append(
                        Pattern(
                            (r - dr) * cols + (c - dc),
                            (r + dr) * cols + (c + dc),
                            Line.between((r - dr, c - dc), (r + dr, c + dc)),
                        )
                    )
                # This square as an end S: O at +k*d, S at +2k*d, for both signs k.
                for k in (1, -1):
                    r2, c2 = r + 2 * k * dr, c + 2 * k * dc
                    if _inside(rows, cols, r2, c2):
                        s_list.append(
                            Pattern(
                                (r + k * dr) * cols + (c + k * dc),
                                r2 * cols + c2,
                                Line.between((r, c), (r2, c2)),
                            )
                        )
            as_s.append(tuple(s_list))
            as_o.append(tuple(o_list))
    return Geometry(rows, cols, tuple(as_s), tuple(as_o))


def completed_lines(cells: list[str], geo: Geometry, index: int, letter: str) -> list[Line]:
    """The SOS lines that ``letter`` on square ``index`` completes, given the other ``cells``.

    Looks only at the patterns through ``index`` (never rescans the board). ``cells`` holds
    ``"S"``, ``"O"`` or ``"."`` per square; the square itself is not read.
    """
    found: list[Line] = []
    if letter == "S":
        for p in geo.as_s[index]:
            if cells[p.a] == "O" and cells[p.b] == "S":
                found.append(p.line)
    else:
        for p in geo.as_o[index]:
            if cells[p.a] == "S" and cells[p.b] == "S":
                found.append(p.line)
    return found


def count_sos(cells: list[str], rows: int, cols: int) -> int:
    """Number of S-O-S triples on a whole board (each counted once). For tests and analysis."""
    geo = geometry(rows, cols)
    return sum(
        1
        for i, letter in enumerate(cells)
        if letter == "O"
        for p in geo.as_o[i]
        if cells[p.a] == "S" and cells[p.b] == "S"
    )
