"""Why a puzzle's solution is the move: the facts a solved puzzle states (pure, no texts).

:func:`why` replays the solution line of a :class:`~sos.app.learn.puzzle_set.Puzzle` and reads its
``wrong`` table: how many SOSs the player's moves of the line made, whether the opponent is left
without an SOS to complete after the player's last move, and the value of the best other first
move (what the solution gained over it). :meth:`sos.app.learn.puzzles.PuzzleSession.feedback` turns
them into words.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...state import GameState
from .puzzle_set import Puzzle


@dataclass(frozen=True)
class Why:
    """What a puzzle's solution does.

    Attributes:
        made: SOSs the player's own moves of the solution line completed (0 or more).
        safe: True when, after the line, the game goes on and the opponent is to move with no
            square where a letter completes an SOS (the solution gives nothing away).
        best_other: the solver's value, for the player, of the best other first move (the
            puzzle's ``value`` is the solution's); None when the puzzle lists no other move.
    """

    made: int
    safe: bool
    best_other: int | None


def scoring_squares(state: GameState) -> int:
    """How many empty squares complete at least one SOS with S or O for the player to move
    (0 on a finished game). ``state`` is left as it was."""
    if state.is_terminal():
        return 0
    found: set[tuple[int, int]] = set()
    for action in state.legal_actions():
        at = (action.row, action.col)
        if at in found:
            continue
        completed = state.apply(action)
        state.undo()
        if completed:
            found.add(at)
    return len(found)


def why(puzzle: Puzzle) -> Why:
    """The facts of :class:`Why` for ``puzzle`` (its line replayed from its start)."""
    state = puzzle.start()
    me = state.current_player()
    made = 0
    for action in puzzle.line:
        mover = state.current_player()
        lines = state.apply(action)
        if mover == me:
            made += len(lines)
    safe = (
        not state.is_terminal()
        and state.current_player() != me
        and scoring_squares(state) == 0
    )
    table = puzzle.wrong[0] if puzzle.wrong else {}
    others = [refutation.value for action, refutation in table.items() if action != puzzle.line[0]]
    return Why(made, safe, max(others) if others else None)


__all__ = ["Why", "scoring_squares", "why"]
