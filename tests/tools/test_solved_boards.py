"""The published first-move values (benchmarks/data/solved, docs/solved.md) against the page's
solver where it knows them: the opening books hold every 1-letter 3x4, 3x5 and 4x4 board."""

from __future__ import annotations

import os

import pytest

from benchmarks.solve_boards import DEFAULT_DIR, read_checkpoint, report
from sos import Action, Rules, new_game, solve


@pytest.mark.parametrize("board", ["3x4", "3x5", "4x4"])
@pytest.mark.parametrize("mode", ["general", "simple"])
def test_first_move_values_match_the_books(board: str, mode: str) -> None:
    rows, cols = (int(x) for x in board.split("x"))
    moves = read_checkpoint(os.path.join(DEFAULT_DIR, f"{board}-{mode}.txt"))
    # one move per symmetry class: 3x4 has 4 classes of squares, 3x5 and 4x4 6 and 3
    assert len(moves) == {"3x4": 8, "3x5": 12, "4x4": 6}[board]
    for name, lo, hi, _, _ in moves:
        assert lo == hi, name
        state = new_game(Rules(rows=rows, cols=cols, mode=mode))  # type: ignore[arg-type]
        state.apply(Action.parse(name))
        assert -solve(state) == lo, (board, mode, name)


def test_report_lists_every_checkpoint() -> None:
    text = report(DEFAULT_DIR)
    assert "| 4x5 | general | 0 | 12 of 12 |" in text
    assert "| 4x5 | simple | -1 | 12 of 12 |" in text
    # 5x5 general: every first move exact, and each worth 0 (a draw whatever the first move)
    assert "| 5x5 | general | 0 | 12 of 12 |" in text
    first_moves = ", ".join(f"{letter}@{square} 0" for square in ("a1", "b1", "c1", "b2", "c2",
                                                                "c3") for letter in "SO")
    assert f"- 5x5 general: {first_moves}" in text
    # 5x5 simple: every first move exact (a win or a draw for the first player, none loses)
    assert "| 5x5 | simple | 1 | 12 of 12 |" in text
