"""The one owner of "this game is over, and how": :func:`outcome_of`, and the list of the ways
a game ends, :data:`ENDINGS` (stated here only; other modules and docs point here).

Everything in the app that asks whether a game has ended reads a :class:`GameOutcome` from
here -- the session (who may move, play/undo/redo, the computer's turn:
:attr:`GameSession.outcome <sos.app.session.GameSession.outcome>`, asked at each position it
steps through), a game by link, the view model (status line, result, board locking), the "Your
games" list, the statistics (:mod:`sos.app.counted`), the embed's ``sos:game-over`` message and
the transcript.

A game ends in one of two ways:

- **on the board** (:meth:`sos.state.GameState.outcome`, the engine's verdict on a position):
  ``full_board`` (every square written; the highest score wins, equal highest scores draw) or
  ``sos`` (simple mode: the first SOS, its writer wins);
- **kept in the game's data**: an ending that is not read off the board (a resignation, an
  agreed draw, a time-out) is written by :meth:`GameSession.end
  <sos.app.session.GameSession.end>` into ``GameRecord.extra[ENDING_KEY]``::

      {"v": 1, "termination": <name>, "winner": <seat from 0> | null, "moves": <share code>}

  where ``moves`` is the line of play up to the position it ended at (the share code of
  :func:`sos.app.transcript.encode_moves`): the ending holds at that position only (an earlier
  position shown from the move list is not over; another line of play is not ended by it). A
  name this build does not list in :data:`ENDINGS` (a newer build's ending) is ignored, never
  removed.

Adding a way a game ends is an entry of :data:`ENDINGS` plus the control that calls
``GameSession.end`` (see docs/contributing.md, "Adding a way a game ends").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from ..state import GameState
from .transcript import encode_moves

if TYPE_CHECKING:
    from .library import GameRecord


class Ending(NamedTuple):
    """One way a game ends.

    Attributes:
        termination: its name (:attr:`GameOutcome.termination`; the embed's ``termination``,
            the transcript's ``(full board)``).
        on_board: True when the engine reads it off the board; False when it is kept in the
            game's data (:data:`ENDING_KEY`).
        win_text: the message key of its result line with a winner (placeholders ``name``
            and ``scores``), in :mod:`sos.app.i18n`.
        draw_text: the message key of its result line for a draw (placeholder ``scores``),
            or ``""`` for the board's draw lines (a full board's tie, simple mode's no SOS).
    """

    termination: str
    on_board: bool
    win_text: str
    draw_text: str = ""


#: Every way a game ends, the list's one owner.
ENDINGS: Final = (
    Ending("full_board", True, "result.win"),
    Ending("sos", True, "result.win.simple"),
)
#: Key of an ending kept in the game's data, in ``GameRecord.extra`` (a merge of two tabs'
#: writes keeps it, like the counted result).
ENDING_KEY: Final = "ending"
_KEPT_VERSION: Final = 1


def ending(termination: str) -> Ending | None:
    """The :class:`Ending` named ``termination``, or None for a name not in :data:`ENDINGS`."""
    return next((e for e in ENDINGS if e.termination == termination), None)


@dataclass(frozen=True)
class GameOutcome:
    """How a game ended.

    Attributes:
        termination: why: the name of one of :data:`ENDINGS`.
        winner: the winning seat (0-based), or ``None`` for a draw.
        tied: in a draw, the seats sharing the highest score (every seat in a simple-mode
            draw, or in a draw kept in the game's data); empty when there is a winner.
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
    one), or ``None`` while it goes on there.

    Args:
        state: the position (the one shown, or the end of the line for the games list and
            the statistics).
        record: the game's data, for the endings kept there (without it: the board only).
    """
    ended = state.outcome()
    if ended is not None:
        return GameOutcome(ended.termination, ended.winner, ended.tied, ended.scores)
    return None if record is None else _kept(state, record)


def _kept(state: GameState, record: GameRecord) -> GameOutcome | None:
    entry = record.extra.get(ENDING_KEY)
    if not isinstance(entry, dict) or entry.get("v") != _KEPT_VERSION:
        return None
    known = ending(str(entry.get("termination")))
    winner = entry.get("winner")
    players = state.rules.players
    if known is None or known.on_board or entry.get("moves") != encode_moves(state.history):
        return None
    scores = state.scores
    if winner is None:
        return GameOutcome(known.termination, None, tuple(range(players)), scores)
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < players:
        return None
    return GameOutcome(known.termination, winner, (), scores)


def with_ending(
    record: GameRecord, state: GameState, termination: str, winner: int | None
) -> GameRecord:
    """``record`` with the ending ``termination`` kept at position ``state`` (of its line),
    won by seat ``winner`` (None: a draw).

    Raises:
        ValueError: for a name that is not an ending kept in the game's data
            (:data:`ENDINGS`), a seat out of range, or a position that is already over.
    """
    known = ending(termination)
    if known is None or known.on_board:
        raise ValueError(f"not an ending kept in the game's data: {termination!r}")
    if winner is not None and not 0 <= winner < state.rules.players:
        raise ValueError(f"no seat {winner} in a {state.rules.players}-player game")
    if outcome_of(state, record) is not None:
        raise ValueError("the game is already over")
    entry = {"v": _KEPT_VERSION, "termination": termination, "winner": winner,
             "moves": encode_moves(state.history)}
    return replace(record, extra={**record.extra, ENDING_KEY: entry})


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
