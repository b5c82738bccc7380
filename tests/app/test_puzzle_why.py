"""Why a puzzle's solution is the move (issue 32): the SOSs it makes, whether the opponent is
left an SOS to complete, and the best other first move -- under CPython."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, parse_puzzles
from sos.app.learn.puzzle_why import scoring_squares, why
from sos.state import GameState

ROOT = Path(__file__).resolve().parents[2]


@cache
def shipped() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


def test_scoring_squares_counts_squares_not_letters_and_leaves_the_state() -> None:
    state = GameState.from_text("S.S/.../...", mode="general", players=2, to_move=1)
    before = state.to_text()
    assert scoring_squares(state) == 1  # b1 with O
    assert state.to_text() == before
    both = GameState.from_text("SO./.../...", mode="general", players=2, to_move=0)
    assert scoring_squares(both) == 1  # c1 with S
    assert scoring_squares(GameState.from_text("S.S/.../...", mode="general", players=2,
                                               to_move=0)) == 1


def test_the_facts_match_a_replay_of_each_shipped_puzzle() -> None:
    for puzzle in shipped():
        found = why(puzzle)
        state = puzzle.start()
        me = state.current_player()
        made = 0
        for action in puzzle.line:
            mover = state.current_player()
            lines = state.apply(action)
            if mover == me:
                made += len(lines)
        assert found.made == made, puzzle.id
        if found.safe:
            assert not state.is_terminal() and state.current_player() != me
            assert scoring_squares(state) == 0
        others = [r.value for a, r in puzzle.wrong[0].items() if a != puzzle.line[0]]
        assert found.best_other == max(others) and found.best_other < puzzle.value, puzzle.id
