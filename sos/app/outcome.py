"""The one decision "this game is over, and how": :func:`outcome_of`.

Everything in the app that asks whether a game has ended reads a :class:`GameOutcome` from
here -- the session (who may move, undo/redo, the computer's turn: :attr:`GameSession.outcome
<sos.app.session.GameSession.outcome>`), a game by link, the view model (status line, result,
board locking), the "Your games" list, the embed's ``sos:game-over`` message and the text
record. Today a game ends on the board only (:meth:`sos.state.GameState.outcome`: a full board,
or simple mode's first SOS); a new way to end a game (e.g. a resignation kept in the game's
record) is a change of :func:`outcome_of` plus the action that records it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal

from ..state import GameState

if TYPE_CHECKING:
    from .library import GameRecord


@dataclass(frozen=True)
class GameOutcome:
    """How a game ended.

    Attributes:
        termination: why: ``"full_board"`` (every square written) or ``"sos"`` (simple mode:
            the first SOS ended it).
        winner: the winning seat (0-based), or ``None`` for a draw.
        tied: in a draw, the seats sharing the highest score (every seat in a simple-mode
            draw); empty when there is a winner.
        scores: the final score of each seat.
    """

    termination: str
    winner: int | None
    tied: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None


def outcome_of(state: GameState, record: GameRecord | None = None) -> GameOutcome | None:
    """The outcome of the game whose position is ``state`` (kept as ``record``, when there is
    one), or ``None`` while it goes on.

    Args:
        state: the position (the one shown, or the end of the line for the games list).
        record: the saved game, for endings that are not on the board (none yet).
    """
    ended = state.outcome()
    if ended is None:
        return None
    return GameOutcome(ended.termination, ended.winner, ended.tied, ended.scores)


class _Board(Enum):
    BOARD = 0


#: Default of the view functions' ``outcome`` argument: the outcome of the state alone (a
#: puzzle's position, a test's); the game page passes the session's outcome instead.
FROM_BOARD: Final = _Board.BOARD
#: The type of an ``outcome`` argument: an outcome, ``None`` (still playing) or FROM_BOARD.
OutcomeArg = GameOutcome | None | Literal[_Board.BOARD]


def resolve(state: GameState, outcome: OutcomeArg) -> GameOutcome | None:
    """``outcome``, or the outcome of ``state`` alone for :data:`FROM_BOARD`."""
    return outcome_of(state) if outcome is FROM_BOARD else outcome
