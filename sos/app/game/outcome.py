"""The one owner of "this game is over, and how": :func:`outcome_of`, and the list of the ways
a game ends, :data:`ENDINGS` (stated here only; other modules and docs point here).

Everything in the app that asks whether a game has ended reads a :class:`GameOutcome` from
here -- the session (who may move, play/undo/redo, the computer's turn:
:attr:`GameSession.outcome <sos.app.game.session.GameSession.outcome>`, asked at each position it
steps through), a game by link, the view model (status line, result, board locking), the "Your
games" list and the statistics (both through :func:`line_outcome`, the end of a game's line),
the embed's ``sos:game-over`` message and the transcript.

A game ends in one of two ways:

- **on the board** (:meth:`sos.state.GameState.outcome`, the engine's verdict on a position):
  ``full_board`` (every square written; the highest score wins, equal highest scores draw) or
  ``sos`` (simple mode: the first SOS, its writer wins);
- **kept in the game's data**: an ending that is not read off the board (a resignation, an
  agreed draw, a time-out) is written by :meth:`GameSession.end
  <sos.app.game.session.GameSession.end>` into ``GameRecord.extra[ENDING_KEY]``::

      {"v": 1, "termination": <name>, "winner": <seat from 0> | null, "moves": <share code>}

  where ``moves`` is the line of play up to the position it ended at (the share code of
  :func:`sos.app.saving.transcript.encode_moves`): the ending holds at that position only (an
  earlier position shown from the move list is not over; another line of play is not ended by
  it). A name this build does not list in :data:`ENDINGS` (a newer build's ending) is ignored, never
  removed.

An ending kept in the data is either **made by a player** (``Ending.by_player``: a
resignation, a time-out; its author is the player to move at its position,
:attr:`GameOutcome.by`, who never wins it nor shares its draw) or by nobody in particular (an
agreed draw). Who wins is the ending's own rule (``Ending.decide``: with 2 players and with
3-4), so the kept ``winner`` is a check value: :func:`kept_outcome` is the one validity rule of
a kept ending, used when it is made, read from a saved game, written into a link and read from
one (and, for a game by link, "nobody ends the game for the receiving seat").

Adding a way a game ends is an entry of :data:`ENDINGS` plus the control that calls
``GameSession.end`` (see docs/contributing.md, "Adding a way a game ends").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from ...state import GameState
from ..saving.gamerecord import ENDING_KEY
from ..saving.transcript import encode_moves

if TYPE_CHECKING:
    from ..saving.gamerecord import GameRecord

#: Who wins an ending kept in the game's data: ``decide(scores, by)`` -> ``(winner, tied)``
#: for the final ``scores`` (one per seat) when seat ``by`` made the ending (None: nobody in
#: particular); ``winner`` None is a draw between the seats of ``tied``.
Decide = Callable[[tuple[int, ...], int | None], tuple[int | None, tuple[int, ...]]]


def best_other(scores: tuple[int, ...], by: int | None) -> tuple[int | None, tuple[int, ...]]:
    """A :data:`Decide` rule for an ending a player makes by leaving the game: with 2 players
    the other seat wins; with 3-4 the highest score among the others wins, and several equal
    highest scores draw between them (the author never wins nor draws)."""
    others = [seat for seat in range(len(scores)) if seat != by]
    top = max(scores[seat] for seat in others)
    best = tuple(seat for seat in others if scores[seat] == top)
    return (best[0], ()) if len(best) == 1 else (None, best)


def everyone_draws(scores: tuple[int, ...], by: int | None) -> tuple[int | None, tuple[int, ...]]:
    """A :data:`Decide` rule for an ending nobody wins (an agreed draw): every seat but its
    author (if any) shares the draw."""
    return None, tuple(seat for seat in range(len(scores)) if seat != by)


class Ending(NamedTuple):
    """One way a game ends.

    Attributes:
        termination: its name (:attr:`GameOutcome.termination`; the embed's ``termination``,
            the transcript's ``(full board)``; letters, digits, ``_`` and ``-``, at most 32:
            a link carries it).
        on_board: True when the engine reads it off the board; False when it is kept in the
            game's data (:data:`ENDING_KEY`).
        win_text: the message key of its result line with a winner (placeholders ``name``,
            ``scores`` and, for an ending made by a player, ``by``: the author's name), in
            :mod:`sos.app.text.i18n`.
        draw_text: the message key of its result line for a draw (placeholders ``scores`` and
            ``by``), or ``""`` for the board's draw lines (a full board's tie, simple mode's
            no SOS).
        by_player: kept endings only: made by the player to move at its position (a
            resignation, a time-out): :attr:`GameOutcome.by`.
        decide: kept endings only: who wins (:data:`Decide`), from the scores and the author.
    """

    termination: str
    on_board: bool
    win_text: str
    draw_text: str = ""
    by_player: bool = False
    decide: Decide = everyone_draws


#: Every way a game ends, the list's one owner.
ENDINGS: Final = (
    Ending("full_board", True, "result.win"),
    Ending("sos", True, "result.win.simple"),
)
#: The version of the entry under :data:`ENDING_KEY` (``GameRecord.extra``; the key is
#: :mod:`sos.app.saving.gamerecord`'s, whose merge of two tabs' writes keeps it).
KEPT_VERSION: Final = 1


def ending(termination: str) -> Ending | None:
    """The :class:`Ending` named ``termination``, or None for a name not in :data:`ENDINGS`."""
    return next((e for e in ENDINGS if e.termination == termination), None)


@dataclass(frozen=True)
class GameOutcome:
    """How a game ended.

    Attributes:
        termination: why: the name of one of :data:`ENDINGS`.
        winner: the winning seat (0-based), or ``None`` for a draw.
        tied: in a draw, the seats sharing it (the highest score on the board; every seat in
            a simple-mode draw; for a kept ending, its rule's); empty when there is a winner.
        scores: the final score of each seat.
        by: the seat that made the ending (a player's resignation), or ``None`` (the board,
            or nobody in particular).
    """

    termination: str
    winner: int | None
    tied: tuple[int, ...]
    scores: tuple[int, ...]
    by: int | None = None

    @property
    def draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def result_for(self, seat: int) -> Literal["win", "draw", "loss"]:
        """``seat``'s result: ``win``, ``draw`` (a draw it shares) or ``loss`` (the author of
        an ending always loses it)."""
        if seat == self.by:
            return "loss"
        if self.winner == seat:
            return "win"
        return "draw" if self.winner is None and seat in self.tied else "loss"


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


def line_outcome(record: GameRecord) -> tuple[GameState, GameOutcome | None]:
    """The position at the end of ``record``'s line of play (every move, the undone ones
    included; not the position shown) and the game's outcome there: what "Your games" and the
    statistics read."""
    state = replace(record, cursor=len(record.line)).state()
    return state, outcome_of(state, record)


def reopened(record: GameRecord) -> GameRecord:
    """``record`` as a tab shows it when it opens it again (a reload, the browser reopened, the
    list): a game whose line of play has ended (:func:`line_outcome`) comes back at its end,
    with its result, wherever it was left -- stepped back in Review, or by the move list; a
    game still in play keeps its position (its undone moves wait for Redo)."""
    if record.cursor >= len(record.line) or line_outcome(record)[1] is None:
        return record
    return replace(record, cursor=len(record.line))


class EndingError(ValueError):
    """A kept ending that does not hold. ``reason``: ``unknown`` (not an ending kept in the
    game's data in this build: a newer build's, or a board ending), ``over`` (the board ended
    the game there already), ``winner`` (not the winner its rule names), ``seat`` (made by the
    receiving seat: nobody ends a game for another device's seat)."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        super().__init__(detail)


def kept_outcome(
    state: GameState, termination: str, winner: object, receiver: int | None = None
) -> GameOutcome:
    """The one validity rule of an ending kept in the game's data: the outcome of the ending
    ``termination`` at position ``state``, said to be won by ``winner`` (a seat from 0, or
    None for a draw) -- checked when it is made (:func:`with_ending`), read from a saved game
    (:func:`outcome_of`), written into a link and read from one (:mod:`sos.app.share.link`) and
    received by link (:mod:`sos.app.share.remote`, with ``receiver``: this device's seat).

    Raises:
        EndingError: (``reason``) ``unknown``, ``over``, ``winner`` or ``seat`` (an ending
            made by ``receiver``).
    """
    known = ending(termination)
    if known is None or known.on_board:
        raise EndingError("unknown", f"not an ending kept in the game's data: {termination!r}")
    if state.outcome() is not None:
        raise EndingError("over", "the game is already over on the board")
    by = state.current_player() if known.by_player else None
    won, tied = known.decide(state.scores, by)
    if isinstance(winner, bool) or winner != won or (by is not None and (won == by or by in tied)):
        raise EndingError("winner", f"{termination} is won by {won}, not {winner!r}")
    if by is not None and by == receiver:
        raise EndingError("seat", f"{termination} by seat {by}, the receiving seat")
    return GameOutcome(termination, won, tied, state.scores, by)


def _kept(state: GameState, record: GameRecord) -> GameOutcome | None:
    entry = record.extra.get(ENDING_KEY)
    if not isinstance(entry, dict) or entry.get("v") != KEPT_VERSION:
        return None
    if entry.get("moves") != encode_moves(state.history):
        return None
    try:
        return kept_outcome(state, str(entry.get("termination")), entry.get("winner"))
    except EndingError:
        return None


def with_ending(record: GameRecord, state: GameState, termination: str) -> GameRecord:
    """``record`` with the ending ``termination`` kept at position ``state`` (of its line); its
    winner is the ending's rule (:attr:`Ending.decide`).

    Raises:
        EndingError: ``unknown`` (as :func:`kept_outcome`), or ``over`` for a position that
            is already over (on the board, or kept there).
    """
    if outcome_of(state, record) is not None:
        raise EndingError("over", "the game is already over")
    known = ending(termination)
    by = state.current_player() if known is not None and known.by_player else None
    winner = known.decide(state.scores, by)[0] if known is not None else None
    kept_outcome(state, termination, winner)
    entry = {"v": KEPT_VERSION, "termination": termination, "winner": winner,
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
