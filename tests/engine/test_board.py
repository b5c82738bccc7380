"""Geometry of the SOS patterns and the perft-style node counts of the game tree."""

from __future__ import annotations

import pytest

from sos import GameState, Line, Rules, new_game
from sos.board import geometry


def perft(state: GameState, depth: int) -> int:
    """Number of action sequences of ``depth`` plies from ``state`` (ending early at the end)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        state.apply(action)
        total += perft(state, depth - 1)
        state.undo()
    return total


def test_pattern_counts_on_a_5x5_board() -> None:
    geo = geometry(5, 5)
    centre = 2 * 5 + 2
    assert len(geo.as_s[centre]) == 8  # an S in the middle ends 8 potential SOSs
    assert len(geo.as_o[centre]) == 4  # an O in the middle is the centre of 4
    assert len(geo.as_o[0]) == 0  # an O in a corner completes nothing
    assert len(geo.as_s[0]) == 3  # an S in a corner: row, column, diagonal


def test_no_wrap_around_on_a_strip() -> None:
    geo = geometry(1, 4)
    # Square 3 is the right end: S patterns only leftwards, none wrapping onto another row.
    assert [p.line for p in geo.as_s[3]] == [Line(0, 1, 0, 3)]
    assert [p.line for p in geo.as_o[1]] == [Line(0, 0, 0, 2)]


def test_line_squares() -> None:
    assert Line(0, 2, 2, 0).squares() == ((0, 2), (1, 1), (2, 0))


@pytest.mark.parametrize(
    ("rows", "cols", "depth", "expected"),
    [
        # Without terminal cuts: prod over plies of 2 * (empty squares).
        (3, 3, 1, 18),
        (3, 3, 2, 18 * 16),
        (3, 3, 3, 18 * 16 * 14),
        (1, 3, 3, 6 * 4 * 2),
    ],
)
def test_perft_general(rows: int, cols: int, depth: int, expected: int) -> None:
    assert perft(new_game(Rules(rows, cols)), depth) == expected


def test_perft_simple_counts_early_ends() -> None:
    # 1x3 simple: the only SOS is S-O-S; sequences ending in it stop early.
    # Count by brute force on the tree and compare with the general tree minus cut branches.
    simple = perft(new_game(Rules(1, 3, "simple")), 3)
    general = perft(new_game(Rules(1, 3, "general")), 3)
    assert simple == general == 48  # the SOS can only be completed by the third move
